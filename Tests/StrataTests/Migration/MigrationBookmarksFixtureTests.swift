import Foundation
import Testing

@testable import Strata
@testable import StrataContext
@testable import StrataSchema
@testable import StrataStore

/// The real DuckDuckGo Bookmarks stores V1…V5, written by Core Data, each
/// migrated to the newest model version of the fixture (6): the result
/// opens, passes the integrity and relationship checks, keeps every
/// bookmark and folder with its values, parent and order, and carries the
/// newest version's exact Core Data hashes.
struct MigrationBookmarksFixtureTests {
    /// Every version of `BookmarksModel.xcdatamodeld`, fetch indexes
    /// included.
    private let chain = SchemaChain(
        versions: (1...6).compactMap(FixtureModels.bookmarksWithIndexes))

    /// One stored bookmark or folder: its values and links by primary key,
    /// to-manys in their stored order.
    private struct Bookmark: Equatable, CustomStringConvertible {
        var key: Int64
        var values: [String: AttributeValue]
        var parent: Int64?
        var children: [Int64]
        var favorites: [Int64]
        var favoriteFolders: [Int64]

        var description: String {
            let values = values.sorted { $0.key < $1.key }
                .map { "\($0.key)=\(StepTestStore.describe($0.value))" }
            return
                "p\(key) \(values.joined(separator: " ")) parent=\(parent.map(String.init) ?? "nil")"
                + " children=\(children) favorites=\(favorites) favoriteFolders=\(favoriteFolders)"
        }
    }

    /// Every bookmark of the store at `url` read as `model`, by key. Up to
    /// version 3 a favorite has one folder, the to-one `favoriteFolder`.
    private func bookmarks(at url: URL, as model: Model) throws -> [Bookmark] {
        let store = try Store.open(at: url, mode: .readOnly)
        defer { try? store.close() }  // Reading only.
        let reader = try StoreReader(store: store, model: model)
        let hasManyFolders = model.entities[0].relationship(named: "favoriteFolders") != nil
        var bookmarks: [Bookmark] = []
        try reader.forEachObject(of: "BookmarkEntity") { object in
            func keys(_ relationship: String) throws -> [Int64] {
                try reader.destinations(of: relationship, from: object.reference).map(\.primaryKey)
            }
            bookmarks.append(
                Bookmark(
                    key: object.reference.primaryKey, values: object.attributes,
                    parent: object.toOne["parent"]?.primaryKey, children: try keys("children"),
                    favorites: try keys("favorites"),
                    favoriteFolders: hasManyFolders
                        ? try keys("favoriteFolders")
                        : object.toOne["favoriteFolder"].map { [$0.primaryKey] } ?? []))
        }
        return bookmarks
    }

    /// The bookmark as the newest version should hold it: attributes the
    /// newest version lacks dropped, those the old one lacked at their
    /// default (nil without one).
    private func expected(_ bookmark: Bookmark, from old: Model, to newest: Model) -> Bookmark {
        var result = bookmark
        result.values = [:]
        for attribute in newest.allAttributes(of: "BookmarkEntity") {
            if old.allAttributes(of: "BookmarkEntity").contains(where: { $0.name == attribute.name }
            ) {
                result.values[attribute.name] = bookmark.values[attribute.name]
            } else if case .literal(let value)? = attribute.defaultValue {
                result.values[attribute.name] = value
            }
        }
        return result
    }

    /// Store `Bookmarks_V<version>` migrated to the newest version keeps
    /// every bookmark and folder, is sound, and has the newest hashes.
    @Test(arguments: 1...5)
    func testBookmarksStoreMigratesToTheNewestVersion(version: Int) throws {
        let folder = try TemporaryDirectory()
        let url = try folder.copyFixtureStore("ddg-bookmarks/Bookmarks_V\(version).sqlite")
        let newest = chain.newest
        let (old, uuid) = try {
            let store = try Store.open(at: url, mode: .readOnly)
            defer { try? store.close() }  // Reading only.
            return (try store.matchingVersion(in: chain), store.metadata.uuid)
        }()
        #expect(old.version == version)
        let before = try bookmarks(at: url, as: old)
        #expect(before.count == 10)

        try MigrationTestRunner.migrate(
            storeAt: url, chain: chain, from: version, to: newest.version)

        let store = try Store.open(at: url)
        defer { try? store.close() }  // Checked below; nothing to save.
        #expect(try store.connection.integrityCheck() == ["ok"])
        #expect(try store.checkRelationships(model: newest) == [])
        #expect(store.metadata.versionHashes == newest.versionHashes.mapValues { Data($0) })
        #expect(store.metadata.hashesDigest == newest.versionHashesDigest)
        #expect(store.metadata.checksum == newest.versionChecksum)
        #expect(store.metadata.uuid == uuid)
        #expect(try store.matchingVersion(in: chain).version == newest.version)
        #expect(try Context(store: store, model: newest).count("BookmarkEntity") == 10)

        let after = try bookmarks(at: url, as: newest)
        #expect(after == before.map { expected($0, from: old, to: newest) })
        // The same, told by UUID: each folder's children and the favorites
        // in their order.
        func byUUID(_ bookmarks: [Bookmark], _ list: KeyPath<Bookmark, [Int64]>) -> [String:
            [String]]
        {
            var uuids: [Int64: String] = [:]
            for bookmark in bookmarks {
                if case .string(let uuid)? = bookmark.values["uuid"] { uuids[bookmark.key] = uuid }
            }
            var lists: [String: [String]] = [:]
            for bookmark in bookmarks where !bookmark[keyPath: list].isEmpty {
                lists[uuids[bookmark.key] ?? "?"] = bookmark[keyPath: list].map { uuids[$0] ?? "?" }
            }
            return lists
        }
        #expect(byUUID(after, \.children) == byUUID(before, \.children))
        #expect(byUUID(after, \.favorites) == byUUID(before, \.favorites))
        #expect(byUUID(after, \.favorites)["favorites_root"]?.count == 5)
    }
}
