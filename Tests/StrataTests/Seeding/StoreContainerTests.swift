import Foundation
import Testing

@testable import Strata
@testable import StrataCore
@testable import StrataFormats
@testable import StrataJobs
@testable import StrataMigration
@testable import StrataSchema
@testable import StrataStore

/// The one-call container: seeds a missing store (from a Core Data store of
/// an older version, a bundle or records), finds an existing one without
/// seeding it again, upgrades an older one and refuses a newer one.
struct StoreContainerTests {
    @Test func testSeedsFromACoreDataVersionOneStoreWithEveryRecipeOrderAndImageByte() throws {
        let folder = try TemporaryDirectory()
        let seedURL = folder.file("Recipes-seed.sqlite")
        let expected = try SeedingFixture.makeCoreDataVersionOneStore(at: seedURL)
        let seedBytes = try Data(contentsOf: seedURL)
        do {
            let seedStore = try Store.open(at: seedURL, mode: .readOnly)
            #expect(seedStore.metadata.frameworkVersion == 241)
            #expect(seedStore.metadata.modelName == nil)
            #expect(
                seedStore.metadata.versionHashes.mapValues { $0.base64EncodedString() }
                    == RecipesMigrationTests.seedHashes)
            try seedStore.close()
        }

        let container = try StoreContainer(
            model: "Recipes", schemas: SeedingFixture.schemas, seed: .store(seedURL),
            location: .file(folder.file("data/Recipes.sqlite")))
        #expect(container.seeding.outcome == .seeded)
        #expect(container.context.model.version == 2)
        #expect(
            container.store.metadata.versionHashes
                == container.chain.newest.versionHashes
                .mapValues { Data($0) })
        #expect(
            try SeedingFixture.recipes(in: container.context)
                == expected.sorted { $0.name < $1.name })
        #expect(container.seeding.counts["Recipe"] == 12)
        #expect(container.seeding.counts["RecipeType"] == 4)
        #expect(
            container.seedRecord
                == SeedRecord(
                    name: "Recipes-seed.sqlite", sha256: SHA256.hex(SHA256.hash(seedBytes)),
                    version: 1,
                    kind: "store"))
        #expect(try Data(contentsOf: seedURL) == seedBytes)
        #expect(try SeedingFixture.strayFiles(in: folder.file("data")) == [])
    }

    @Test func testASecondOpenFindsTheStoreAndDoesNotSeedAgain() throws {
        let folder = try TemporaryDirectory()
        let seedURL = folder.file("seed.sqlite")
        try SeedingFixture.makeCoreDataVersionOneStore(at: seedURL)
        let location = StoreLocation.file(folder.file("Recipes.sqlite"))
        let uuid: String
        do {
            let first = try StoreContainer(
                model: "Recipes", schemas: SeedingFixture.schemas, seed: .store(seedURL),
                location: location)
            uuid = first.store.metadata.uuid
            let extra = try first.context.insert("RecipeType")
            try extra.set("name", "Added by the app")
            try first.context.save()
        }
        // Another seed now: the existing store is never seeded again.
        try FileManager.default.removeItem(at: seedURL)
        let second = try StoreContainer(
            model: "Recipes", schemas: SeedingFixture.schemas, seed: .store(seedURL),
            location: location)
        #expect(second.seeding.outcome == .existing)
        #expect(second.migration == nil)
        #expect(second.store.metadata.uuid == uuid)
        #expect(try second.context.count("RecipeType") == 5)
        #expect(second.seedRecord?.name == "seed.sqlite")
    }

    @Test func testSeedsFromThePlistSampleWithItsMapping() throws {
        let folder = try TemporaryDirectory()
        let container = try StoreContainer(
            model: "Recipes", schemas: SeedingFixture.schemas,
            seed: .records(
                SeedingFixture.samplePlist, format: .plist, mapping: SeedingFixture.sampleMapping),
            location: .file(folder.file("Recipes.sqlite")))
        #expect(container.seeding.outcome == .seeded)
        #expect(
            try SeedingFixture.recipes(in: container.context)
                == SeedingFixture.recipes().sorted { $0.name < $1.name })
        #expect(container.seedRecord?.kind == "plist")
        #expect(container.seedRecord?.version == 2)
        #expect(
            container.seedRecord?.sha256
                == SHA256.hex(SHA256.hash(try Data(contentsOf: SeedingFixture.samplePlist))))
    }

    @Test func testSeedsFromAVersionOneBundle() throws {
        let folder = try TemporaryDirectory()
        let storeURL = folder.file("v1.sqlite")
        let expected = try SeedingFixture.makeCoreDataVersionOneStore(at: storeURL)
        let v1 = try #require(
            try SchemaChain.load(directory: SeedingFixture.recipesSchemas).model(version: 1))
        let bundleURL = folder.file("Recipes.zip")
        do {
            let store = try Store.open(at: storeURL)
            try BundleArchiver(store: store, model: v1).archive(to: bundleURL)
            try store.close()
        }
        let seed = try Seed.detecting(bundleURL)
        #expect(seed.kind == .bundle)
        let container = try StoreContainer(
            model: "Recipes", schemas: SeedingFixture.schemas, seed: seed,
            location: .file(folder.file("data/Recipes.sqlite")))
        #expect(container.seeding.outcome == .seeded)
        #expect(container.seedRecord?.version == 1)
        #expect(container.seedRecord?.kind == "bundle")
        #expect(
            try SeedingFixture.recipes(in: container.context)
                == expected.sorted { $0.name < $1.name })
        #expect(try SeedingFixture.strayFiles(in: folder.file("data")) == [])
    }

    @Test func testWithoutASeedTheStoreIsCreatedEmptyAtTheNewestVersion() throws {
        let folder = try TemporaryDirectory()
        let container = try StoreContainer(
            model: "Diary", schemas: SeedingFixture.schemas,
            location: .file(folder.file("a/b/Diary.sqlite")))
        #expect(container.seeding.outcome == .created)
        #expect(container.context.model.version == 4)
        #expect(try container.context.count("DiaryEntry") == 0)
        #expect(container.seedRecord == nil)
    }

    @Test func testAnOlderStoreIsMigratedOnOpen() throws {
        let folder = try TemporaryDirectory()
        let storeURL = folder.file("Recipes.sqlite")
        try SeedingFixture.makeCoreDataVersionOneStore(at: storeURL)
        let container = try StoreContainer(
            model: "Recipes", schemas: SeedingFixture.schemas, location: .file(storeURL))
        #expect(container.seeding.outcome == .existing)
        #expect(container.migration?.startVersion == 1)
        #expect(container.migration?.finalVersion == 2)
        #expect(try container.context.count("Recipe") == 12)
        // The migrator's backup and journal are gone once it has finished.
        #expect(try SeedingFixture.strayFiles(in: folder.url) == [])
        #expect(container.store.metadata.otherKeys["StrataMigrationJournal"] == nil)
    }

    @Test func testANewerStoreIsRefusedWithTheMigratorsMessageAndLeftAlone() throws {
        let folder = try TemporaryDirectory()
        let storeURL = folder.file("Recipes.sqlite")
        let v2 = try SchemaChain.load(directory: SeedingFixture.recipesSchemas).newest
        try Store.create(at: storeURL, model: v2).close()
        let before = try Data(contentsOf: storeURL)
        let onlyOne = folder.file("Schemas/Recipes")
        try FileManager.default.createDirectory(at: onlyOne, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: SeedingFixture.recipesSchemas.appendingPathComponent("1.json"),
            to: onlyOne.appendingPathComponent("1.json"))
        let error = try #require(throws: MigrationError.self) {
            _ = try StoreContainer(
                model: "Recipes", schemas: folder.file("Schemas"), location: .file(storeURL))
        }
        #expect(error.code == .newerThanSchemas)
        #expect(error.message.contains("newer than the newest schema here (version 1)"))
        #expect(try Data(contentsOf: storeURL) == before)
    }

    @Test func testAStoreOfAnotherModelIsRefusedAsUnknown() throws {
        let folder = try TemporaryDirectory()
        let storeURL = folder.file("Recipes.sqlite")
        let diary = try SchemaChain.load(
            directory: SeedingFixture.schemas.appendingPathComponent("Diary")
        ).newest
        try Store.create(at: storeURL, model: diary).close()
        let error = try #require(throws: MigrationError.self) {
            _ = try StoreContainer(
                model: "Recipes", schemas: SeedingFixture.schemas, location: .file(storeURL))
        }
        #expect(error.code == .unknownStoreVersion)
    }

    @Test func testSchemasShippedAsResourcesOfABundle() throws {
        let folder = try TemporaryDirectory()
        let resources = folder.file("App.resources")
        try FileManager.default.createDirectory(at: resources, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: SeedingFixture.recipesSchemas,
            to: resources.appendingPathComponent("Schemas/Recipes"))
        let bundle = try #require(Bundle(url: resources))
        let container = try StoreContainer(
            model: "Recipes", bundle: bundle, location: .file(folder.file("Recipes.sqlite")))
        #expect(container.context.model.version == 2)
    }

    @Test func testTheDefaultPlaceFollowsXDGDataHomeThenHome() throws {
        let location = StoreLocation.applicationData(app: "recipes")
        #expect(
            try location.storeURL(model: "Recipes", environment: ["XDG_DATA_HOME": "/data/x"]).path
                == "/data/x/recipes/Recipes.sqlite")
        #expect(
            try location.storeURL(
                model: "Recipes", environment: ["XDG_DATA_HOME": "relative", "HOME": "/home/u"]
            ).path == "/home/u/.local/share/recipes/Recipes.sqlite")
        #expect(
            try location.storeURL(model: "Recipes", environment: ["HOME": "/home/u"]).path
                == "/home/u/.local/share/recipes/Recipes.sqlite")
        #expect(throws: SeedingError.self) {
            _ = try location.storeURL(model: "Recipes", environment: [:])
        }
        #expect(throws: SeedingError.self) {
            _ = try StoreLocation.applicationData(app: "../x").storeURL(
                model: "Recipes", environment: ["HOME": "/home/u"])
        }
    }
}
