import Foundation
import Testing

/// `strata info` on real stores written by Core Data, copied with their WAL
/// files: the rows are counted through the WAL and the copies stay
/// byte-identical.
struct InfoFixtureCommandTests {
    static let fixtures = StrataRunner.packageRoot.appendingPathComponent(
        "Tests/StrataTests/Fixtures/coredata")

    /// Copies a fixture store with its -wal and -shm files into `folder`.
    static func copy(_ relative: String, to folder: ScratchFolder) throws -> String {
        let source = fixtures.appendingPathComponent(relative)
        let target = folder.path(source.lastPathComponent)
        for suffix in ["", "-wal", "-shm"]
        where FileManager.default.fileExists(atPath: source.path + suffix) {
            try FileManager.default.copyItem(atPath: source.path + suffix, toPath: target + suffix)
        }
        return target
    }

    static func contents(_ store: String) throws -> [String: Data] {
        var files: [String: Data] = [:]
        for suffix in ["", "-wal", "-shm"]
        where FileManager.default.fileExists(atPath: store + suffix) {
            files[suffix] = try Data(contentsOf: URL(fileURLWithPath: store + suffix))
        }
        return files
    }

    @Test(arguments: 1...5)
    func testBookmarksStoreAlone(version: Int) throws {
        let folder = try ScratchFolder()
        let store = try Self.copy("ddg-bookmarks/Bookmarks_V\(version).sqlite", to: folder)
        let before = try Self.contents(store)
        #expect(before["-wal"]?.isEmpty == false)

        let outcome = try StrataRunner.run(["info", store])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stderr == "")
        #expect(
            outcome.stdout.contains(
                "\nHashes     the store's model cache (Z_MODELCACHE) reproduces every stored hash\n"
            ))
        #expect(outcome.stdout.contains("\n  1      BookmarkEntity  10    "))
        #expect(outcome.stdout.contains("\nIntegrity  ok\n"))
        #expect(try Self.contents(store) == before)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: folder.url.path).count
                == before.count)
    }

    @Test func testBNRStoreAloneAsJSON() throws {
        let folder = try ScratchFolder()
        let store = try Self.copy("bnr-sample/TestModel.sqlite", to: folder)
        let before = try Self.contents(store)
        let outcome = try StrataRunner.run(["info", store, "--json"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let object =
            try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any]
        #expect(object?["modelSource"] as? String == "modelCache")
        #expect(object?["hashMismatches"] as? [String] == [])
        #expect(object?["frameworkVersion"] as? Int == 637)
        let entities = object?["entities"] as? [[String: Any]]
        #expect(entities?.compactMap { $0["name"] as? String } == ["Author", "Book"])
        #expect(try Self.contents(store) == before)
    }
}
