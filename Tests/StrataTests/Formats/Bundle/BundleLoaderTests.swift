import Foundation
import Testing

@testable import Strata
@testable import StrataContext
@testable import StrataFormats
@testable import StrataStore

/// Rows go into the store many to a statement; a key listed twice is still
/// refused with its own line.
struct BundleLoaderTests {
    @Test func testAKeyTwiceAmongManyRowsIsRefusedWithItsLine() throws {
        let fixture = try BundleFixture()
        var entries = try BundleFixture.honestEntries(fixture)
        var tags = try BundleFixture.objects(entries, "data/Tag.jsonl")
        let last =
            tags.compactMap { ($0["_id"] as? String).flatMap(BundleObjectDecoder.parseID)?.1 }
            .max() ?? 0
        // Enough tags without media for several many-row statements; the
        // duplicate falls inside one.
        for number in 1...40 {
            tags.append(["_id": "Tag/p\(last + Int64(number))", "name": "extra \(number)"])
        }
        tags.insert(["_id": "Tag/p\(last + 3)", "name": "twice"], at: tags.count - 10)
        let line = tags.count - 10  // 1-based: the inserted object's line.
        entries = try BundleFixture.replacing(entries, "data/Tag.jsonl", with: tags)
        let index = try #require(entries.firstIndex { $0.0 == "manifest.json" })
        var manifest = try JSONDecoder().decode(BundleManifest.self, from: entries[index].1)
        manifest.counts["Tag"] = tags.count
        entries[index].1 = try JSONEncoder().encode(manifest)
        #expect {
            _ = try BundleFixture.unarchive(entries)
        } throws: { error in
            (error as? BundleError)?.code == .invalidData
                && "\(error)".contains(
                    "data/Tag.jsonl\" line \(line): Tag/p\(last + 3) is there twice")
        }
    }

    @Test func testMediaAboveAndBelowTheInMemoryLimitRestoreByteForByte() throws {
        let fixture = try BundleFixture()
        let context = try Context(store: fixture.store, model: fixture.model)
        let entry = try #require(try context.fetch(FetchRequest(entity: "DiaryEntry")).first)
        // Streamed into its row in pieces, not read whole.
        var generator = SystemRandomNumberGenerator()
        let large = Data(
            (0..<(Int(BundleObjectDecoder.mediumReadLimit) + 100_000)).map { _ in
                UInt8.random(in: 0...255, using: &generator)
            })
        // Read whole: exactly at the limit.
        let edge = Data(repeating: 0x5A, count: Int(BundleObjectDecoder.mediumReadLimit))
        for bytes in [large, edge] {
            let medium = try context.insert("Medium")
            try medium.set("type", "image")
            try medium.setValue(.data(bytes), forKey: "data")
            try medium.setObject(entry, forKey: "diaryEntry")
        }
        try context.save()
        let (folder, restored) = try fixture.restored()
        _ = folder
        try fixture.expectSameObjects(in: restored)
        let sizes = try restored.connection.prepare(
            "SELECT length(ZDATA) FROM ZMEDIUM ORDER BY length(ZDATA) DESC LIMIT 2")
        var lengths: [Int64] = []
        while try sizes.step() { lengths.append(sizes.int64(at: 0)) }
        // Core Data's marker byte leads each external-storage value.
        #expect(lengths == [Int64(large.count + 1), Int64(edge.count + 1)])
    }

    /// The join table's second index is dropped during the load and made
    /// again after it: the restored store ends with the indexes a created
    /// one has, the same SQL, and a sound file.
    @Test func testTheRestoredStoreHasTheIndexesOfACreatedOne() throws {
        let fixture = try BundleFixture()
        let (folder, restored) = try fixture.restored()
        _ = folder
        func indexes(_ store: Store) throws -> [String] {
            let statement = try store.connection.prepare(
                "SELECT name || ' ' || coalesce(sql, '') FROM sqlite_master WHERE type = 'index' "
                    + "ORDER BY name")
            var found: [String] = []
            while try statement.step() { found.append(statement.text(at: 0) ?? "") }
            return found
        }
        let created = try indexes(fixture.store)
        #expect(created.contains { $0.hasPrefix("Z_") && $0.contains("TAGS_INDEX") })
        #expect(try indexes(restored) == created)
        #expect(try restored.connection.scalar("PRAGMA integrity_check") == .text("ok"))
        let linked = try restored.connection.scalar(
            "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name LIKE 'Z\\_%TAGS' ESCAPE '\\'"
        )
        #expect(linked == .integer(1))
    }

    @Test func testManyRowStatementsRestoreEveryRow() throws {
        let fixture = try BundleFixture(entries: 40)
        let (folder, restored) = try fixture.restored()
        _ = folder
        try fixture.expectSameObjects(in: restored)
    }
}
