import Foundation
import Testing

@testable import Strata
@testable import StrataCore
@testable import StrataSchema
@testable import StrataStore

/// Decodes `Z_MODELCACHE` of every fixture store and checks the result
/// against the store's own metadata and the model XML beside it.
struct ModelCacheTests {
    /// A fixture store: its folder under `Fixtures/coredata`, its file name
    /// without extension, and the hand-written model of its XML.
    struct Fixture: CustomStringConvertible, Sendable {
        let folder: String
        let name: String
        let version: Int

        var description: String { name }

        /// The model from the XML `contents` of this store's version.
        var expectedModel: Model? {
            folder == "bnr-sample" ? FixtureModels.bnrV1() : FixtureModels.bookmarks(version)
        }
    }

    static let fixtures: [Fixture] =
        [Fixture(folder: "bnr-sample", name: "TestModel", version: 1)]
        + (1...5).map { Fixture(folder: "ddg-bookmarks", name: "Bookmarks_V\($0)", version: $0) }

    /// Copies the store with its `-wal` and `-shm` (when present) to a fresh
    /// temporary folder and opens the copy: SQLite rewrites WAL files on
    /// close, and the bookmarks stores keep their data in the WAL.
    static func withStore<T>(_ fixture: Fixture, _ body: (Connection) throws -> T) throws -> T {
        let store = try #require(
            Bundle.module.url(
                forResource: fixture.name, withExtension: "sqlite",
                subdirectory: "Fixtures/coredata/\(fixture.folder)"))
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("strata-modelcache-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let copy = folder.appendingPathComponent(store.lastPathComponent)
        for suffix in ["", "-wal", "-shm"] {
            let source = URL(fileURLWithPath: store.path + suffix)
            if FileManager.default.fileExists(atPath: source.path) {
                try FileManager.default.copyItem(
                    at: source, to: URL(fileURLWithPath: copy.path + suffix))
            }
        }
        let connection = try Connection(path: copy.path, mode: .readWrite)
        defer { try? connection.close() }
        return try body(connection)
    }

    /// `NSStoreModelVersionHashes` from `Z_METADATA.Z_PLIST` (no UIDs, so
    /// Foundation may read it).
    static func metadataHashes(_ connection: Connection) throws -> [String: [UInt8]] {
        guard case .blob(let plist)? = try connection.scalar("SELECT Z_PLIST FROM Z_METADATA")
        else {
            Issue.record("Z_METADATA.Z_PLIST is not a blob")
            return [:]
        }
        let metadata = try PropertyListSerialization.propertyList(from: plist, format: nil)
        let dictionary = try #require(metadata as? [String: Any])
        let hashes = try #require(dictionary["NSStoreModelVersionHashes"] as? [String: Data])
        return hashes.mapValues { [UInt8]($0) }
    }

    /// Reads and decodes a fixture's cache, with the store's metadata hashes.
    static func decode(_ fixture: Fixture) throws -> (Model, [String: [UInt8]]) {
        try withStore(fixture) { connection in
            let blob = try #require(try ModelCache.read(from: connection))
            let model = try ModelCache.decode(blob, modelName: "Fixture")
            return (model, try metadataHashes(connection))
        }
    }

    // MARK: - Fixture stores

    @Test(arguments: fixtures) func testCacheReproducesTheStoreHashes(fixture: Fixture) throws {
        let (model, hashes) = try Self.decode(fixture)
        #expect(!hashes.isEmpty)
        #expect(model.versionHashes == hashes)
    }

    @Test(arguments: fixtures) func testCacheMatchesTheModelXML(fixture: Fixture) throws {
        let (model, _) = try Self.decode(fixture)
        let expected = try #require(fixture.expectedModel)
        // `isIndexed` comes from the fetch indexes in the cache; the
        // hand-written models leave it out, as the XML has no `indexed`.
        var entities = model.entities
        for index in entities.indices {
            for attribute in entities[index].attributes.indices {
                entities[index].attributes[attribute].isIndexed = false
            }
        }
        #expect(entities == expected.entities)
    }

    @Test func testBookmarksDetails() throws {
        for version in 1...5 {
            let fixture = Self.fixtures[version]
            let (model, _) = try Self.decode(fixture)
            #expect(model.entities.map(\.name) == ["BookmarkEntity"])
            #expect(model.versionIdentifier == "")
            let entity = try #require(model.entity(named: "BookmarkEntity"))
            #expect(entity.parent == nil && !entity.isAbstract)
            let children = try #require(entity.relationship(named: "children"))
            #expect(children.isToMany && children.isOrdered && children.isOptional)
            #expect(children.inverse == "parent" && children.deleteRule == .cascade)
            let parent = try #require(entity.relationship(named: "parent"))
            #expect(!parent.isToMany && parent.maxCount == 1 && parent.destination == entity.name)
            #expect(try #require(entity.attribute(named: "uuid")).isOptional == false)
            #expect(try #require(entity.attribute(named: "title")).isOptional)
            let modifier = version >= 3 ? "3" : version == 2 ? "2" : nil
            #expect(entity.attribute(named: "uuid")?.versionHashModifier == modifier)
            #expect(entity.attribute(named: "url")?.versionHashModifier == modifier)
            if version >= 3 {
                let pending = try #require(entity.attribute(named: "isPendingDeletion"))
                #expect(pending.versionHashModifier == "3")
                #expect(pending.defaultValue == .literal(.boolean(false)))
                #expect(pending.isIndexed)
            }
            if version >= 4 {
                let folders = try #require(entity.relationship(named: "favoriteFolders"))
                #expect(folders.renamingIdentifier == "favoriteFolder" && !folders.isOrdered)
            }
        }
    }

    @Test func testBNRDetails() throws {
        let (model, _) = try Self.decode(Self.fixtures[0])
        #expect(model.entities.map(\.name) == ["Author", "Book"])
        let books = try #require(model.entity(named: "Author")?.relationship(named: "books"))
        #expect(books.destination == "Book" && books.inverse == "authors")
        #expect(books.isToMany && !books.isOrdered && books.deleteRule == .nullify)
    }

    // MARK: - Synthetic archives

    /// An abstract parent with a uniqueness constraint, a subentity, legacy
    /// flag keys, a destination given only as an object, a deny rule,
    /// external storage and a skipped transient attribute.
    @Test func testDecodesFeaturesBeyondTheFixtures() throws {
        var builder = ModelCacheArchiveBuilder()
        let baseName = builder.add(.text("Base"))
        let codeName = builder.add(.text("code"))
        let code = builder.object(
            "NSAttributeDescription",
            [
                "NSPropertyName": codeName, "NSAttributeType": .integer(300),
                "NSIsOptional": .boolean(true),
            ])
        let blob = builder.object(
            "NSAttributeDescription",
            [
                "NSPropertyName": builder.add(.text("blob")), "_P": .integer(0xF1),
                "NSAttributeType": .integer(1000), "NSFlagsKey": .integer(0x14),
            ])
        let scratch = builder.object(
            "NSAttributeDescription",
            [
                "NSPropertyName": builder.add(.text("scratch")), "_P": .integer(0xF9),
                "NSAttributeType": .integer(0),
            ])
        let tuple = builder.object("NSArray", ["NS.objects": .array(values: [codeName])])
        let base = builder.object(
            "NSEntityDescription",
            [
                "NSEntityName": baseName, "NSIsAbstract": .boolean(true),
                "NSUniqueTuples": builder.object(
                    "NSArray", ["NS.objects": .array(values: [tuple])]),
                "NSProperties": builder.dictionary([
                    ("code", code), ("blob", blob), ("scratch", scratch),
                ]),
            ])
        let owner = builder.object(
            "NSRelationshipDescription",
            [
                "NSPropertyName": builder.add(.text("owner")), "NSDestinationEntity": base,
                "NSMaxCount": .integer(1), "NSMinCount": .integer(1), "NSDeleteRule": .integer(3),
            ])
        let child = builder.object(
            "NSEntityDescription",
            [
                "NSEntityName": builder.add(.text("Child")), "NSSuperentity": base,
                "NSProperties": builder.dictionary([("owner", owner)]),
            ])
        let model = try ModelCache.decode(
            builder.cache(entities: [("Base", base), ("Child", child)]), modelName: "Synthetic")
        #expect(model.name == "Synthetic")
        let parent = try #require(model.entity(named: "Base"))
        #expect(parent.isAbstract && parent.uniquenessConstraints == [["code"]])
        #expect(parent.attributes.map(\.name) == ["blob", "code"])
        let codeAttribute = try #require(parent.attribute(named: "code"))
        #expect(codeAttribute.type == .integer64 && codeAttribute.isOptional)
        let blobAttribute = try #require(parent.attribute(named: "blob"))
        #expect(!blobAttribute.isOptional && blobAttribute.allowsExternalStorage)
        #expect(blobAttribute.preservesValueOnDeletion)
        let childEntity = try #require(model.entity(named: "Child"))
        #expect(childEntity.parent == "Base")
        let ownerRelationship = try #require(childEntity.relationship(named: "owner"))
        #expect(ownerRelationship.destination == "Base" && ownerRelationship.inverse == "")
        #expect(!ownerRelationship.isToMany && ownerRelationship.minCount == 1)
        #expect(ownerRelationship.deleteRule == .deny && !ownerRelationship.isOptional)
    }

    @Test func testUnsupportedPersistentAttributeTypeThrows() throws {
        var builder = ModelCacheArchiveBuilder()
        let id = builder.object(
            "NSAttributeDescription",
            [
                "NSPropertyName": builder.add(.text("ref")), "_P": .integer(0xF1),
                "NSAttributeType": .integer(2000),
            ])
        let entity = builder.object(
            "NSEntityDescription",
            [
                "NSEntityName": builder.add(.text("E")),
                "NSProperties": builder.dictionary([("ref", id)]),
            ])
        let error = try #require(throws: ModelCacheError.self) {
            try ModelCache.decode(builder.cache(entities: [("E", entity)]), modelName: "X")
        }
        #expect(error.entity == "E" && error.property == "ref")
        #expect(error.message.contains("2000"))
    }

    // MARK: - Reading the blob

    @Test func testReadReturnsNilWithoutTableOrRow() throws {
        try TemporaryDatabase.withConnection { connection in
            #expect(try ModelCache.read(from: connection) == nil)
            try connection.execute("CREATE TABLE Z_MODELCACHE (Z_CONTENT BLOB)")
            #expect(try ModelCache.read(from: connection) == nil)
            try connection.execute("INSERT INTO Z_MODELCACHE VALUES (NULL)")
            #expect(try ModelCache.read(from: connection) == nil)
            try connection.execute("UPDATE Z_MODELCACHE SET Z_CONTENT = 42")
            #expect(throws: ModelCacheError.self) { try ModelCache.read(from: connection) }
        }
    }

    // MARK: - Corrupt caches

    @Test func testCorruptBlobsThrow() throws {
        #expect(throws: CompressionError.self) {
            try ModelCache.decode(Data([0xff, 0xfe, 0x00, 0x42]), modelName: "X")
        }
        #expect(throws: PropertyListError.self) {
            try ModelCache.decode(RawDeflate.deflate(Data("not a plist".utf8)), modelName: "X")
        }
        let plain = try PropertyListSerialization.data(
            fromPropertyList: ["$archiver": "Other"], format: .binary, options: 0)
        #expect(throws: KeyedArchiveError.self) {
            try ModelCache.decode(RawDeflate.deflate(plain), modelName: "X")
        }
        let blob = try Self.withStore(Self.fixtures[5]) { try ModelCache.read(from: $0) }
        let content = try #require(blob)
        #expect(throws: CompressionError.self) {
            try ModelCache.decode(content.prefix(content.count / 2), modelName: "X")
        }
    }

    /// Flips bytes throughout a real archive: every variant decodes or
    /// throws, none crashes.
    @Test func testMutatedArchivesNeverCrash() throws {
        let blob = try Self.withStore(Self.fixtures[5]) { try ModelCache.read(from: $0) }
        let archive = try RawDeflate.inflate(try #require(blob), limit: 1 << 20)
        var failures = 0
        for position in stride(from: 0, to: archive.count, by: 5) {
            for value: UInt8 in [0x00, 0x01, 0x80, 0xFF] {
                var mutated = archive
                mutated[position] = value
                do {
                    _ = try ModelCache.decodeArchive(mutated, modelName: "X")
                } catch {
                    failures += 1
                }
            }
        }
        #expect(failures > 0)
    }
}
