import Foundation
import Testing

@testable import Strata
@testable import StrataContext
@testable import StrataJobs
@testable import StrataSchema
@testable import StrataStore

/// Seeding from stores Core Data itself wrote (DuckDuckGo's Bookmarks
/// stores, with their WAL files): read through the WAL, never written, and
/// migrated to the newest version, or refused before anything is copied when
/// the migration would lose data nothing acknowledges.
struct CoreDataFixtureSeedTests {
    /// The Bookmarks versions as a schema folder the seeder reads.
    private func schemasFolder(in folder: TemporaryDirectory) throws -> URL {
        let url = folder.file("Schemas")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        for model in (1...6).compactMap(FixtureModels.bookmarksWithIndexes) {
            try SchemaEncoder().encodeData(model).write(
                to: url.appendingPathComponent("\(model.version).json"))
        }
        return url
    }

    /// Every file of the seed (store, -wal, -shm) and its bytes.
    private func snapshot(of seed: URL) -> [String: Data] {
        var files: [String: Data] = [:]
        for suffix in ["", "-wal", "-shm"] {
            files[suffix] = FileManager.default.contents(atPath: seed.path + suffix)
        }
        return files
    }

    @Test(arguments: 3...5)
    func testARealCoreDataStoreIsReadThroughItsWALAndMigrated(version: Int) throws {
        let folder = try TemporaryDirectory()
        let schemas = try schemasFolder(in: folder)
        let seed = try folder.copyFixtureStore("ddg-bookmarks/Bookmarks_V\(version).sqlite")
        let before = snapshot(of: seed)
        #expect((before["-wal"]?.count ?? 0) > 0)
        let storeURL = folder.file("data.sqlite")
        let seeder = try Seeder(storeAt: storeURL, schemas: schemas, seed: .store(seed))
        let result = try seeder.seedIfMissing()
        #expect(result.outcome == .seeded)
        #expect(result.counts == ["BookmarkEntity": 10])
        #expect(result.seed?.version == version)
        #expect(snapshot(of: seed) == before)

        let store = try Store.open(at: storeURL)
        defer { try? store.close() }  // Read below; nothing to save.
        #expect(try store.matchingVersion(in: seeder.chain).version == 6)
        #expect(try store.connection.integrityCheck() == ["ok"])
        #expect(try store.checkRelationships(model: seeder.chain.newest) == [])
        #expect(
            try Context(store: store, model: seeder.chain.newest).count("BookmarkEntity") == 10)
    }

    /// From versions 1 and 2 the migration drops `isFavorite`: the seed is
    /// refused with the migrator's finding, and nothing is made.
    @Test(arguments: 1...2)
    func testASeedWhoseMigrationWouldLoseDataIsRefused(version: Int) throws {
        let folder = try TemporaryDirectory()
        let schemas = try schemasFolder(in: folder)
        let seed = try folder.copyFixtureStore("ddg-bookmarks/Bookmarks_V\(version).sqlite")
        let before = snapshot(of: seed)
        let storeURL = folder.file("data.sqlite")
        let seeder = try Seeder(storeAt: storeURL, schemas: schemas, seed: .store(seed))
        let error = try #require(throws: SeedingError.self) { _ = try seeder.seedIfMissing() }
        #expect(error.code == .badSeed)
        #expect(
            error.message.contains(
                "10 values of BookmarkEntity.isFavorite would be dropped; acknowledge it"))
        #expect(!FileManager.default.fileExists(atPath: storeURL.path))
        #expect(snapshot(of: seed) == before)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: folder.url.path).sorted()
                == ["Bookmarks_V\(version).sqlite"]
                + (before["-shm"] == nil ? [] : ["Bookmarks_V\(version).sqlite-shm"])
                + (before["-wal"] == nil ? [] : ["Bookmarks_V\(version).sqlite-wal"]) + ["Schemas"])
    }
}
