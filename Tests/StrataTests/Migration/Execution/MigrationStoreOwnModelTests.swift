import Foundation
import Testing

@testable import Strata
@testable import StrataContext
@testable import StrataMigration
@testable import StrataSchema
@testable import StrataStore

/// Issue 16, point 3: a store whose model was edited in place (its hashes
/// match no published version) migrates from its own model, read from its
/// `Z_MODELCACHE`; a cache that does not match the store is refused.
struct MigrationStoreOwnModelTests {
    /// The Bookmarks chain with version 3 edited after `Bookmarks_V3` was
    /// written: an optional `note` added in place, as apps do without a new
    /// version.
    static func editedChain() throws -> SchemaChain {
        var versions = (1...6).compactMap(FixtureModels.bookmarksWithIndexes)
        var entity = try #require(versions[2].entities.first)
        var note = Attribute(name: "note", type: .string)
        note.isOptional = true
        entity.attributes.append(note)
        versions[2].entities[0] = entity
        return SchemaChain(versions: versions)
    }

    @Test func testAStoreOfAModelEditedInPlaceMigratesFromItsOwnModel() throws {
        let chain = try Self.editedChain()
        let folder = try TemporaryDirectory()
        let url = try folder.copyFixtureStore("ddg-bookmarks/Bookmarks_V3.sqlite")
        try {
            let store = try Store.open(at: url, mode: .readOnly)
            defer { try? store.close() }  // Reading only.
            #expect(Store.matchingVersions(of: store.metadata.versionHashes, in: chain).isEmpty)
        }()

        let migrator = Migrator(storeAt: url, chain: chain)
        let preview = try migrator.preview()
        #expect(preview.currentVersion == 3 && preview.targetVersion == 6)
        let expected: String =
            "\(url.relativePath) matches no version of BookmarksModel; the source is the "
            + "store's own model (Z_MODELCACHE), nearest published version 3, differing in: "
            + "BookmarkEntity (hash differs: note only in the schema); it stands as version 3 "
            + "of the plan"
        #expect(preview.versionNotes.first == expected)
        #expect(preview.blockingFindings.isEmpty, "\(preview.findings)")

        let report = try migrator.run()
        #expect(report.finalVersion == 6)
        #expect(report.versionNotes == preview.versionNotes)
        let store = try Store.open(at: url)
        defer { try? store.close() }  // Checked below; nothing to save.
        #expect(try store.connection.integrityCheck() == ["ok"])
        #expect(store.metadata.versionHashes == chain.newest.versionHashes.mapValues { Data($0) })
        #expect(try store.checkRelationships(model: chain.newest) == [])
        #expect(try Context(store: store, model: chain.newest).count("BookmarkEntity") == 10)
    }

    /// When the nearest version is the target itself, the store's model
    /// stands before it, and the run ends at the target's hashes.
    @Test func testAStoreOfTheEditedTargetVersionMigratesToIt() throws {
        let chain = try Self.editedChain()
        let folder = try TemporaryDirectory()
        let url = try folder.copyFixtureStore("ddg-bookmarks/Bookmarks_V3.sqlite")
        var options = MigrationOptions()
        options.targetVersion = 3
        let migrator = Migrator(storeAt: url, chain: chain, options: options)
        let preview = try migrator.preview()
        #expect(preview.currentVersion == 2 && preview.targetVersion == 3)
        #expect(preview.versionNotes.first?.hasSuffix("it stands as version 2 of the plan") == true)
        let report = try migrator.run()
        #expect(report.finalVersion == 3)
        let store = try Store.open(at: url, mode: .readOnly)
        defer { try? store.close() }  // Reading only.
        let edited = try #require(chain.model(version: 3))
        #expect(store.metadata.versionHashes == edited.versionHashes.mapValues { Data($0) })
    }

    @Test func testACacheThatDoesNotMatchTheStoreIsRefused() throws {
        let chain = try Self.editedChain()
        let folder = try TemporaryDirectory()
        let url = try folder.copyFixtureStore("ddg-bookmarks/Bookmarks_V3.sqlite")
        let other = try folder.copyFixtureStore("ddg-bookmarks/Bookmarks_V5.sqlite")
        // Version 5's model cache put into the version 3 store.
        let cache: Data = try {
            let store = try Store.open(at: other, mode: .readOnly)
            defer { try? store.close() }  // Reading only.
            return try #require(try ModelCache.read(from: store.connection))
        }()
        try {
            let store = try Store.open(at: url)
            defer { try? store.close() }  // Written in one statement.
            try store.connection.execute(
                "UPDATE Z_MODELCACHE SET Z_CONTENT = ?", [.blob(cache)])
        }()
        let before = try Data(contentsOf: url)
        let error = try #require(throws: MigrationError.self) {
            try Migrator(storeAt: url, chain: chain).run()
        }
        #expect(error.code == .unknownStoreVersion)
        #expect(
            error.message.contains(
                "its model cache (Z_MODELCACHE.Z_CONTENT) does not match its hashes"),
            "\(error.message)")
        #expect(error.message.hasSuffix("nothing was changed"))
        #expect(try Data(contentsOf: url) == before)
    }

    @Test func testAStoreWithoutACacheIsRefusedAsBefore() throws {
        let chain = try Self.editedChain()
        let folder = try TemporaryDirectory()
        let url = folder.file("Plain.sqlite")
        try Store.create(at: url, model: try #require(FixtureModels.bookmarksWithIndexes(3)))
            .close()
        let error = try #require(throws: MigrationError.self) {
            try Migrator(storeAt: url, chain: chain).preview()
        }
        #expect(error.code == .unknownStoreVersion)
        #expect(
            error.message.contains(
                "matches no version of BookmarksModel; nearest is version 3, which differs in: "
                    + "BookmarkEntity (hash differs: note only in the schema)"), "\(error.message)")
        #expect(error.message.contains("the store has no model cache (Z_MODELCACHE)"))
    }
}
