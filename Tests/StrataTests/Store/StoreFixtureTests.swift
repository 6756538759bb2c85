import Foundation
import Testing

@testable import Strata
@testable import StrataCore
@testable import StrataSchema
@testable import StrataStore

/// Real stores written by Core Data (Fixtures/coredata): their recorded hashes
/// are reproduced from their model versions, and each is identified as the
/// version that wrote it.
struct StoreFixtureTests {
    static let bookmarksChain = SchemaChain(
        versions: (1...6).compactMap { FixtureModels.bookmarks($0) })

    private static func checksums(of url: URL) throws -> [String: [UInt8]] {
        var sums: [String: [UInt8]] = [:]
        for suffix in ["", "-wal", "-shm"] {
            let path = url.path + suffix
            if FileManager.default.fileExists(atPath: path) {
                sums[suffix] = SHA256.hash(try Data(contentsOf: URL(fileURLWithPath: path)))
            }
        }
        return sums
    }

    @Test(arguments: 1...5)
    func testBookmarksStoreIsIdentifiedByItsHashes(version: Int) throws {
        let folder = try TemporaryDirectory()
        let url = try folder.copyFixtureStore("ddg-bookmarks/Bookmarks_V\(version).sqlite")
        let before = try Self.checksums(of: url)

        let store = try Store.open(at: url, mode: .readOnly)
        let model = try #require(FixtureModels.bookmarks(version))
        #expect(store.metadata.versionHashes == model.versionHashes.mapValues { Data($0) })
        if let digest = store.metadata.hashesDigest { #expect(digest == model.versionHashesDigest) }
        if let checksum = store.metadata.checksum { #expect(checksum == model.versionChecksum) }
        #expect(try store.matchingVersion(in: Self.bookmarksChain).version == version)

        // The rows live in the -wal file; they are seen without checkpointing.
        let info = try store.info(model: model)
        #expect(info.entities.map(\.name) == ["BookmarkEntity"])
        #expect(info.entities.map(\.rows) == [10])
        #expect(info.integrity == ["ok"])
        try store.close()
        #expect(try Self.checksums(of: url) == before)
    }

    @Test func testBNRStoreIsVersionOne() throws {
        let folder = try TemporaryDirectory()
        let url = try folder.copyFixtureStore("bnr-sample/TestModel.sqlite")
        let store = try Store.open(at: url, mode: .readOnly)
        defer { try? store.close() }
        let chain = SchemaChain(versions: [FixtureModels.bnrV1(), FixtureModels.bnrV2()])
        #expect(try store.matchingVersion(in: chain).version == 1)
        #expect(store.metadata.frameworkVersion == 637)
        #expect(store.metadata.uuid == "E7350B5D-5058-46F7-90B9-DCA517BBAF92")
    }

    @Test func testStoreMatchingNoVersionNamesNearestAndDifferences() throws {
        let folder = try TemporaryDirectory()
        let url = try folder.copyFixtureStore("bnr-sample/TestModel.sqlite")
        let store = try Store.open(at: url, mode: .readOnly)
        defer { try? store.close() }
        let chain = SchemaChain(versions: [FixtureModels.bnrV2()])
        #expect {
            try store.matchingVersion(in: chain)
        } throws: { error in
            guard let error = error as? StoreError, error.code == .unknownVersion else {
                return false
            }
            return error.message
                == "matches no version of TestModel; nearest is version 2, which differs in: "
                + "Book (hash differs), Publisher (only in the schema)"
        }
    }
}

/// With the store's own model (from its model cache), a version mismatch is
/// explained property by property.
struct StoreVersionDifferenceTests {
    @Test func testMismatchNamesPropertiesFromTheModelCache() throws {
        let folder = try TemporaryDirectory()
        let url = try folder.copyFixtureStore("ddg-bookmarks/Bookmarks_V3.sqlite")
        let store = try Store.open(at: url, mode: .readOnly)
        defer { try? store.close() }
        let cache = try #require(try ModelCache.read(from: store.connection))
        let storeModel = try ModelCache.decode(cache, modelName: "BookmarksModel")
        let chain = SchemaChain(
            versions: [try #require(FixtureModels.bookmarks(4))].map { model in
                var renumbered = model
                renumbered.version = 1
                return renumbered
            })
        #expect {
            try store.matchingVersion(in: chain, storeModel: storeModel)
        } throws: { error in
            (error as? StoreError)?.message
                == "matches no version of BookmarksModel; nearest is version 1, which differs in: "
                + "BookmarkEntity (hash differs: favoriteFolder only in the store; "
                + "favoriteFolders only in the schema; favorites changed)"
        }
    }
}
