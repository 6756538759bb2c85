import Foundation
import Testing

@testable import Strata
@testable import StrataJobs

/// The code examples of the Seeding article, the README's seeding recipe
/// and the seeding types' doc comments, compiled and run as written.
struct SeedingDocExampleTests {
    /// The names the examples use, bound to a fresh folder each.
    struct Names {
        let folder: TemporaryDirectory
        let schemasURL = SeedingFixture.schemas
        let recipesSchemasURL = SeedingFixture.recipesSchemas
        let plistURL = SeedingFixture.samplePlist
        let mappingURL = SeedingFixture.sampleMapping
        let seedURL: URL
        let storeURL: URL

        init() throws {
            folder = try TemporaryDirectory()
            seedURL = folder.file("Recipes-seed.sqlite")
            storeURL = folder.file("data/Recipes.sqlite")
            try SeedingFixture.makeCoreDataVersionOneStore(at: seedURL)
        }
    }

    @Test func testArticleOverviewAndSeedRecordExamples() throws {
        let names = try Names()
        let (schemasURL, seedURL, storeURL) = (names.schemasURL, names.seedURL, names.storeURL)

        // From Seeding.md, Overview (and StoreContainer's doc comment).
        let container = try StoreContainer(
            model: "Recipes", schemas: schemasURL, seed: .store(seedURL), location: .file(storeURL))
        let recipes = try container.context.findAll("Recipe")
        print(container.seeding.outcome, recipes.count)
        #expect(recipes.count == 12)

        // From Seeding.md, What a seeding guarantees.
        if let seed = container.seedRecord {
            print("seeded from \(seed.name) (\(seed.sha256)), version \(seed.version)")
        }
        #expect(container.seedRecord?.version == 1)

        // From SeedRecord's doc comment.
        let store = container.store
        if let seed = SeedRecord(metadata: store.metadata) {
            print("seeded from \(seed.name), version \(seed.version)")
        }
    }

    @Test func testArticleLocationAndResourcesExamples() throws {
        let names = try Names()
        let (seedURL, storeURL) = (names.seedURL, names.storeURL)
        let url = try StoreLocation.applicationData(app: "recipes")
            .storeURL(model: "Recipes", environment: ["HOME": "/home/ann"])
        #expect(url.path == "/home/ann/.local/share/recipes/Recipes.sqlite")

        let resources = names.folder.file("App.resources")
        try FileManager.default.createDirectory(at: resources, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: SeedingFixture.schemas, to: resources.appendingPathComponent("Schemas"))
        let appBundle = try #require(Bundle(url: resources))
        let container = try StoreContainer(
            model: "Recipes", bundle: appBundle, seed: .store(seedURL),
            location: .file(storeURL))
        #expect(container.seeding.outcome == .seeded)
    }

    @Test func testArticleSeedsAndSeedExamples() throws {
        let names = try Names()
        let (plistURL, mappingURL, seedURL) = (names.plistURL, names.mappingURL, names.seedURL)

        // From Seeding.md, Seeds.
        let fromRecords = Seed.records(
            plistURL, format: .plist, mapping: mappingURL)
        let detected = try Seed.detecting(seedURL)  // a store, a zip, or records by their name
        #expect(fromRecords.kind == .records(.plist))
        #expect(detected.kind == .store)

        do {
            // From Seed's doc comment.
            let fromStore = Seed.store(seedURL)
            let fromRecords = Seed.records(plistURL, format: .plist, entity: "Recipe")
            #expect(fromStore.kindName == "store" && fromRecords.kindName == "plist")
        }
    }

    @Test func testArticleSeederAndOptionsExamples() throws {
        let names = try Names()
        let (recipesSchemasURL, seedURL) = (names.recipesSchemasURL, names.seedURL)
        var storeURL = names.folder.file("Recipes.sqlite")

        // From Seeding.md, Without a container (and SeedingOptions' doc comment).
        var options = SeedingOptions()
        options.lockTimeout = 5
        options.afterStep = { step in print(step.number, step.name) }
        let result = try Seeder(
            storeAt: storeURL, schemas: recipesSchemasURL, seed: .store(seedURL), options: options
        ).seedIfMissing()
        print(result.outcome, result.counts)
        #expect(result.outcome == .seeded)

        // From Seeder's doc comment.
        storeURL = names.folder.file("Other.sqlite")
        let seeder = try Seeder(
            storeAt: storeURL, schemas: recipesSchemasURL, seed: .store(seedURL))
        let again = try seeder.seedIfMissing()
        print(again.outcome, again.counts)
        #expect(again.counts["Recipe"] == 12)
    }

    @Test func testReadmeSeedingRecipe() throws {
        let names = try Names()
        let (schemasURL, seedURL, storeURL) = (names.schemasURL, names.seedURL, names.storeURL)

        // From README.md, Seeding an app's store.
        let container = try StoreContainer(
            model: "Recipes", schemas: schemasURL, seed: .store(seedURL), location: .file(storeURL))
        #expect(container.seeding.outcome == .seeded)
    }
}
