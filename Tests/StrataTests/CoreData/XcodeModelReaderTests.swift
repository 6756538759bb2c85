import Foundation
import Testing

@testable import Strata
@testable import StrataSchema
@testable import StrataStore

/// The real Xcode models of the fixtures convert to the models Core Data
/// hashed into the fixture stores.
struct XcodeModelReaderTests {
    static func bookmarks() throws -> XcodeModelBundle {
        try XcodeModelReader().read(
            at: Fixtures.url("coredata/ddg-bookmarks/BookmarksModel.xcdatamodeld"))
    }

    static func sample() throws -> XcodeModelBundle {
        try XcodeModelReader().read(at: Fixtures.url("coredata/bnr-sample/Sample.xcdatamodeld"))
    }

    @Test func testBothFixtureBundlesConvert() throws {
        let bookmarks = try Self.bookmarks()
        #expect(bookmarks.name == "BookmarksModel")
        #expect(bookmarks.versions.map(\.version) == Array(1...6))
        #expect(bookmarks.versions.allSatisfy { $0.name == "BookmarksModel" })
        #expect(
            bookmarks.versionFolders
                == ["BookmarksModel.xcdatamodel"]
                + (2...6).map { "BookmarksModel \($0).xcdatamodel" }
        )
        #expect(bookmarks.warnings.isEmpty)
        let sample = try Self.sample()
        #expect(sample.name == "Sample")
        #expect(sample.versions.map(\.version) == [1, 2])
        #expect(sample.warnings.isEmpty)
    }

    @Test(arguments: 1...6) func testBookmarksVersionEqualsTheHandWrittenModel(version: Int) throws
    {
        let converted = try Self.bookmarks().versions[version - 1]
        #expect(converted == FixtureModels.bookmarksWithIndexes(version))
    }

    @Test func testSampleVersionsHaveTheHandWrittenEntities() throws {
        let sample = try Self.sample()
        for (converted, expected) in zip(
            sample.versions, [FixtureModels.bnrV1(), FixtureModels.bnrV2()])
        {
            #expect(converted.entities == expected.entities)
            #expect(converted.versionHashes == expected.versionHashes)
        }
    }

    // MARK: - Against the stores Core Data wrote

    static let stores =
        (1...5).map { ("ddg-bookmarks/Bookmarks_V\($0).sqlite", $0) } + [
            ("bnr-sample/TestModel.sqlite", 1)
        ]

    @Test(arguments: stores) func testConvertedHashesMatchTheStore(store: String, version: Int)
        throws
    {
        let bundle = try store.hasPrefix("ddg") ? Self.bookmarks() : Self.sample()
        let folder = try TemporaryDirectory()
        let opened = try Store.open(at: try folder.copyFixtureStore(store), mode: .readOnly)
        defer { try? opened.close() }
        let model = bundle.versions[version - 1]
        #expect(opened.metadata.versionHashes == model.versionHashes.mapValues { Data($0) })
        let chain = SchemaChain(versions: bundle.versions)
        #expect(try opened.matchingVersion(in: chain).version == version)
    }

    @Test(arguments: 1...5) func testCreatedStoreHasTheCoreDataStoreHashes(version: Int) throws {
        let model = try Self.bookmarks().versions[version - 1]
        let folder = try TemporaryDirectory()
        let created = try Store.create(at: folder.file("New.sqlite"), model: model)
        let createdHashes = created.metadata.versionHashes
        try created.close()
        let original = try Store.open(
            at: try folder.copyFixtureStore("ddg-bookmarks/Bookmarks_V\(version).sqlite"),
            mode: .readOnly)
        defer { try? original.close() }
        #expect(createdHashes == original.metadata.versionHashes)
    }

    @Test func testConvertedJSONLoadsAsAChain() throws {
        let folder = try TemporaryDirectory()
        let bundle = try Self.bookmarks()
        for model in bundle.versions {
            try SchemaEncoder().encodeData(model).write(to: folder.file("\(model.version).json"))
        }
        let chain = try SchemaChain.load(directory: folder.url)
        #expect(chain.versions == bundle.versions)
    }

    /// Bookmarks_V5.sqlite: the fetch indexes give Core Data's own DDL text.
    @Test func testBookmarksFetchIndexesGiveCoreDataDDL() throws {
        let model = try Self.bookmarks().versions[4]
        let statements = StoreLayout(model: model).createStatements
        let folder = try TemporaryDirectory()
        let store = try Store.open(
            at: try folder.copyFixtureStore("ddg-bookmarks/Bookmarks_V5.sqlite"), mode: .readOnly)
        defer { try? store.close() }
        for name in ["byUUID", "byURL", "byIsPendingDeletion"] {
            let sql = try store.connection.scalar(
                "SELECT sql FROM sqlite_master WHERE name = ?", [.text("Z_BookmarkEntity_\(name)")])
            guard case .text(let text)? = sql else {
                Issue.record("no index \(name) in the store")
                continue
            }
            #expect(statements.contains(text))
        }
    }
}
