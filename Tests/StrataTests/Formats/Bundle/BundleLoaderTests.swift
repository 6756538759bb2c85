import Foundation
import Testing

@testable import Strata

/// Rows go into the store many to a statement; a key listed twice is still
/// refused with its own line.
@Suite struct BundleLoaderTests {
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

    @Test func testManyRowStatementsRestoreEveryRow() throws {
        let fixture = try BundleFixture(entries: 40)
        let entries = try BundleFixture.honestEntries(fixture)
        let (folder, restored) = try BundleFixture.unarchive(entries)
        _ = folder
        #expect(
            try BundleFixture.snapshot(restored, model: fixture.model)
                == BundleFixture.snapshot(fixture.store, model: fixture.model))
    }
}
