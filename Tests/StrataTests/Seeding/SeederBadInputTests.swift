import Foundation
import Testing

@testable import Strata
@testable import StrataJobs
@testable import StrataSchema
@testable import StrataStore

/// Bad seeds, folders and locks: a clear error naming the file and no store,
/// or a safe recovery.
struct SeederBadInputTests {
    private func seeder(_ folder: TemporaryDirectory, seed: Seed?, timeout: Double = 60) throws
        -> Seeder
    {
        var options = SeedingOptions()
        options.lockTimeout = timeout
        return try Seeder(
            storeAt: folder.file("Recipes.sqlite"), schemas: SeedingFixture.recipesSchemas,
            seed: seed, options: options)
    }

    @Test func testAMissingSeedIsNamedAndNoStoreIsMade() throws {
        let folder = try TemporaryDirectory()
        let error = try #require(throws: SeedingError.self) {
            _ = try seeder(folder, seed: .store(folder.file("nowhere.sqlite"))).seedIfMissing()
        }
        #expect(error.code == .badSeed)
        #expect(error.description.hasSuffix("nowhere.sqlite: no such seed file"))
        #expect(try SeedingFixture.strayFiles(in: folder.url) == [])
    }

    @Test func testACorruptSeedStoreLeavesNothing() throws {
        let folder = try TemporaryDirectory()
        let seedURL = folder.file("seed.sqlite")
        try SeedingFixture.makeCoreDataVersionOneStore(at: seedURL)
        var bytes = try Data(contentsOf: seedURL)
        bytes.replaceSubrange(
            100..<bytes.count, with: Data(repeating: 0xA5, count: bytes.count - 100))
        try bytes.write(to: seedURL)
        let error = try #require(throws: SeedingError.self) {
            _ = try seeder(folder, seed: .store(seedURL)).seedIfMissing()
        }
        #expect(error.code == .badSeed)
        #expect(error.path.hasSuffix("seed.sqlite"))
        #expect(!FileManager.default.fileExists(atPath: folder.file("Recipes.sqlite").path))
        #expect(try SeedingFixture.strayFiles(in: folder.url) == ["seed.sqlite"])
    }

    @Test func testAFileThatIsNoSeedAtAllIsRefused() throws {
        let folder = try TemporaryDirectory()
        let junk = folder.file("seed.bin")
        try Data([0x00, 0xFF, 0x13, 0x37, 0x00, 0x02]).write(to: junk)
        let error = try #require(throws: SeedingError.self) { _ = try Seed.detecting(junk) }
        #expect(error.code == .badSeed)
        #expect(error.message.hasPrefix("not a store, a bundle or a file of records"))
    }

    @Test func testASeedOfAnotherModelIsRefused() throws {
        let folder = try TemporaryDirectory()
        let seedURL = folder.file("diary.sqlite")
        let diary = try SchemaChain.load(
            directory: SeedingFixture.schemas.appendingPathComponent("Diary")
        ).newest
        try Store.create(at: seedURL, model: diary).close()
        let error = try #require(throws: SeedingError.self) {
            _ = try seeder(folder, seed: .store(seedURL)).seedIfMissing()
        }
        #expect(error.code == .badSeed)
        #expect(error.message.contains("matches no version of Recipes"))
        #expect(try SeedingFixture.strayFiles(in: folder.url) == ["diary.sqlite"])
    }

    @Test func testASeedNewerThanTheSchemasIsRefused() throws {
        let folder = try TemporaryDirectory()
        let seedURL = folder.file("seed.sqlite")
        let v2 = try SchemaChain.load(directory: SeedingFixture.recipesSchemas).newest
        try Store.create(at: seedURL, model: v2).close()
        let onlyOne = folder.file("Recipes")
        try FileManager.default.createDirectory(at: onlyOne, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: SeedingFixture.recipesSchemas.appendingPathComponent("1.json"),
            to: onlyOne.appendingPathComponent("1.json"))
        let seeder = try Seeder(
            storeAt: folder.file("data.sqlite"), schemas: onlyOne, seed: .store(seedURL))
        let error = try #require(throws: SeedingError.self) { _ = try seeder.seedIfMissing() }
        #expect(error.code == .badSeed)
        #expect(error.message.contains("newer than the newest schema here (version 1)"))
        #expect(!FileManager.default.fileExists(atPath: folder.file("data.sqlite").path))
    }

    @Test func testRecordsThatBreakTheSchemaLeaveNoStore() throws {
        let folder = try TemporaryDirectory()
        let seedURL = folder.file("recipes.json")
        try Data(#"[{"name": "Soup", "prepTime": "not a number"}]"#.utf8).write(to: seedURL)
        let error = try #require(throws: SeedingError.self) {
            _ = try seeder(folder, seed: .records(seedURL, format: .json, entity: "Recipe"))
                .seedIfMissing()
        }
        #expect(error.code == .buildFailed)
        #expect(error.description.contains("recipes.json"))
        #expect(try SeedingFixture.strayFiles(in: folder.url) == ["recipes.json"])
    }

    @Test func testAnUnmakeableDataFolderIsNamed() throws {
        let folder = try TemporaryDirectory()
        try Data().write(to: folder.file("file"))
        let error = try #require(throws: SeedingError.self) {
            _ = try StoreContainer(
                model: "Recipes", schemas: SeedingFixture.schemas,
                location: .file(folder.file("file/data/Recipes.sqlite")))
        }
        #expect(error.code == .unwritableFolder)
        #expect(error.path.hasSuffix("file/data"))
    }

    @Test func testAStaleLockAndAKilledSeedingsFilesAreTakenOver() throws {
        let folder = try TemporaryDirectory()
        let seedURL = folder.file("seed.sqlite")
        try SeedingFixture.makeCoreDataVersionOneStore(at: seedURL)
        // What a seeder killed mid-build leaves: its lock file (no process
        // holds the flock any more) and its half-built hidden store.
        try Data().write(to: folder.file("Recipes.sqlite.strata-lock"))
        try Data("half".utf8).write(to: folder.file(".Recipes.sqlite.strata-seeding"))
        try Data().write(to: folder.file(".Recipes.sqlite.strata-seeding-wal"))
        let result = try seeder(folder, seed: .store(seedURL), timeout: 0).seedIfMissing()
        #expect(result.outcome == .seeded)
        #expect(
            result.removedLeftovers == [
                ".Recipes.sqlite.strata-seeding", ".Recipes.sqlite.strata-seeding-wal",
            ])
        #expect(try SeedingFixture.strayFiles(in: folder.url) == ["seed.sqlite"])
    }

    @Test func testALiveLockMakesAClearErrorAfterTheWait() throws {
        let folder = try TemporaryDirectory()
        let seedURL = folder.file("seed.sqlite")
        try SeedingFixture.makeCoreDataVersionOneStore(at: seedURL)
        let held = try StoreLock(
            for: folder.file("Recipes.sqlite"), mode: .exclusive, waitingUpTo: 0)
        defer { held.release() }
        let error = try #require(throws: StoreError.self) {
            _ = try seeder(folder, seed: .store(seedURL), timeout: 0).seedIfMissing()
        }
        #expect(error.code == .locked)
        #expect(!FileManager.default.fileExists(atPath: folder.file("Recipes.sqlite").path))
    }

    @Test func testAnExistingStoreIsNeverReplaced() throws {
        let folder = try TemporaryDirectory()
        let seedURL = folder.file("seed.sqlite")
        try SeedingFixture.makeCoreDataVersionOneStore(at: seedURL)
        try Data("not even a store".utf8).write(to: folder.file("Recipes.sqlite"))
        let result = try seeder(folder, seed: .store(seedURL)).seedIfMissing()
        #expect(result.outcome == .existing)
        #expect(
            try Data(contentsOf: folder.file("Recipes.sqlite")) == Data("not even a store".utf8))
    }

    @Test func testStepsAreReportedInOrderUpToTheLink() throws {
        let folder = try TemporaryDirectory()
        let seedURL = folder.file("seed.sqlite")
        try SeedingFixture.makeCoreDataVersionOneStore(at: seedURL)
        var steps: [SeedingStep] = []
        var options = SeedingOptions()
        options.afterStep = { steps.append($0) }
        let seeder = try Seeder(
            storeAt: folder.file("Recipes.sqlite"), schemas: SeedingFixture.recipesSchemas,
            seed: .store(seedURL), options: options)
        _ = try seeder.seedIfMissing()
        #expect(steps.map(\.number) == Array(1...steps.count))
        #expect(steps.first?.name == "locked")
        #expect(steps.last?.name == "linked")
        #expect(steps.contains { $0.name == "migrating" })
    }
}
