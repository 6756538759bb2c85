import Foundation
import Testing

@testable import Strata
@testable import StrataCore
@testable import StrataSchema
@testable import StrataStore

struct StoreTests {
    /// A model with a many-to-many, an ordered to-many, a one-to-one and an
    /// inheritance tree.
    static let library: Model = {
        var chapters = Relationship(
            name: "chapters", destination: "Chapter", inverse: "book", isToMany: true)
        chapters.isOrdered = true
        var item = Entity(name: "Item", attributes: [Attribute(name: "title", type: .string)])
        item.isAbstract = true
        let book = Entity(
            name: "Book", parent: "Item", attributes: [Attribute(name: "pages", type: .integer32)],
            relationships: [
                chapters,
                Relationship(
                    name: "authors", destination: "Author", inverse: "books", isToMany: true),
                Relationship(name: "cover", destination: "Cover", inverse: "book"),
            ])
        let author = Entity(
            name: "Author", attributes: [Attribute(name: "name", type: .string)],
            relationships: [
                Relationship(name: "books", destination: "Book", inverse: "authors", isToMany: true)
            ])
        let chapter = Entity(
            name: "Chapter", parent: "Item",
            relationships: [Relationship(name: "book", destination: "Book", inverse: "chapters")])
        let cover = Entity(
            name: "Cover", attributes: [Attribute(name: "image", type: .binary)],
            relationships: [Relationship(name: "book", destination: "Book", inverse: "cover")])
        return Model(
            name: "Library", version: 1, versionIdentifier: "1.0",
            entities: [item, book, author, chapter, cover])
    }()

    @Test func testCreatedStoreHasCoreDataTablesAndBookkeeping() throws {
        let folder = try TemporaryDirectory()
        let store = try Store.create(at: folder.file("Library.sqlite"), model: Self.library)
        defer { try? store.close() }
        let connection = store.connection

        var ddl: [String] = []
        try connection.prepare("SELECT sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY rowid")
            .forEachRow { ddl.append($0.text(at: 0) ?? "") }
        #expect(ddl == StoreLayout(model: Self.library).createStatements)
        #expect(
            ddl.contains(
                "CREATE TABLE ZITEM ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZPAGES INTEGER, ZCOVER INTEGER, ZBOOK INTEGER, Z_FOK_BOOK INTEGER, ZTITLE VARCHAR )"
            ))
        #expect(
            ddl.contains(
                "CREATE TABLE ZCOVER ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZBOOK INTEGER, ZIMAGE BLOB )"
            ))
        #expect(
            ddl.contains(
                "CREATE TABLE Z_1BOOKS ( Z_1AUTHORS INTEGER, Z_4BOOKS INTEGER, PRIMARY KEY (Z_1AUTHORS, Z_4BOOKS) )"
            ))
        #expect(ddl.contains("CREATE INDEX ZITEM_Z_ENT_INDEX ON ZITEM (Z_ENT)"))

        #expect(store.entityRecords.map(\.name) == ["Author", "Cover", "Item", "Book", "Chapter"])
        #expect(store.entityRecords.map(\.superNumber) == [0, 0, 0, 3, 3])
        #expect(store.entityRecords.allSatisfy { $0.maxPrimaryKey == 0 })

        #expect(try connection.pragma("auto_vacuum")?.int64Value == 2)
        #expect(try connection.pragma("page_size")?.int64Value == 4096)
        #expect(try connection.pragma("journal_mode")?.stringValue == "wal")
        #expect(try connection.integrityCheck() == ["ok"])
    }

    @Test func testMetadataCarriesCoreDataHashesAndStrataKeys() throws {
        let folder = try TemporaryDirectory()
        let store = try Store.create(at: folder.file("Library.sqlite"), model: Self.library)
        defer { try? store.close() }
        let plist = try #require(
            try store.connection.scalar("SELECT Z_PLIST FROM Z_METADATA")?.dataValue)
        let dictionary = try #require(
            try PropertyListSerialization.propertyList(from: plist, format: nil) as? [String: Any])
        let hashes = try #require(dictionary["NSStoreModelVersionHashes"] as? [String: Data])
        #expect(hashes == Self.library.versionHashes.mapValues { Data($0) })
        #expect((dictionary["NSStoreModelVersionHashesVersion"] as? NSNumber)?.intValue == 3)
        #expect(dictionary["NSStoreModelVersionIdentifiers"] as? [String] == ["1.0"])
        #expect(dictionary["NSStoreType"] as? String == "SQLite")
        #expect(dictionary["_NSAutoVacuumLevel"] as? String == "2")
        #expect((dictionary["NSPersistenceFrameworkVersion"] as? NSNumber)?.intValue == 1338)
        #expect(
            dictionary["NSStoreModelVersionHashesDigest"] as? String
                == Self.library.versionHashesDigest)
        #expect(
            dictionary["NSStoreModelVersionChecksumKey"] as? String == Self.library.versionChecksum)
        #expect(dictionary["StrataModelName"] as? String == "Library")
        #expect((dictionary["StrataModelVersion"] as? NSNumber)?.intValue == 1)
        let uuid = try #require(
            try store.connection.scalar("SELECT Z_UUID FROM Z_METADATA")?.stringValue)
        #expect(UUID(uuidString: uuid) != nil && uuid == uuid.uppercased())
        #expect(store.metadata.uuid == uuid)
    }

    @Test func testCreateRefusesAnExistingFileAndLeavesItAlone() throws {
        let folder = try TemporaryDirectory()
        let url = folder.file("Notes.sqlite")
        try Data("my notes".utf8).write(to: url)
        #expect(throws: StoreError.self) { try Store.create(at: url, model: Self.library) }
        #expect(try Data(contentsOf: url) == Data("my notes".utf8))
        // Nothing but the original file is left behind.
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: folder.url.path) == ["Notes.sqlite"]
        )
    }

    @Test func testOpeningWhatIsNotAStoreNamesTheFileAndChangesNothing() throws {
        let folder = try TemporaryDirectory()
        do {
            _ = try Store.open(at: folder.file("missing.sqlite"))
            Issue.record("opened a missing file")
        } catch let error as StoreError {
            #expect(error.code == .notFound)
            #expect(error.description.hasSuffix("missing.sqlite: no such file"))
        }

        let text = folder.file("notes.txt")
        let bytes = Data(String(repeating: "Dear diary, today I learned SQLite. ", count: 200).utf8)
        try bytes.write(to: text)
        do {
            _ = try Store.open(at: text)
            Issue.record("opened a text file")
        } catch let error as StoreError {
            #expect(error.code == .notADatabase)
            #expect(error.description.contains("notes.txt"))
        }
        #expect(try Data(contentsOf: text) == bytes)

        let plain = folder.file("plain.sqlite")
        let connection = try Connection(path: plain.path)
        try connection.execute("CREATE TABLE people (name TEXT)")
        try connection.close()
        let before = try Data(contentsOf: plain)
        #expect {
            try Store.open(at: plain)
        } throws: { error in
            (error as? StoreError)?.code == .notCoreDataStore
                && "\(error)".contains("plain.sqlite: not a Core Data store")
        }
        #expect(try Data(contentsOf: plain) == before)
    }

    @Test func testInfoCountsRowsPerConcreteEntity() throws {
        let folder = try TemporaryDirectory()
        let store = try Store.create(at: folder.file("Library.sqlite"), model: Self.library)
        defer { try? store.close() }
        try store.connection.execute(
            """
            INSERT INTO ZITEM (Z_PK, Z_ENT, Z_OPT, ZTITLE) VALUES (1, 4, 1, 'A book'), (2, 5, 1, 'Ch. 1'), (3, 5, 1, 'Ch. 2');
            INSERT INTO ZAUTHOR (Z_PK, Z_ENT, Z_OPT, ZNAME) VALUES (1, 1, 1, 'Ann');
            """)
        let info = try store.info(model: Self.library)
        #expect(info.entities.map(\.rows) == [1, 0, 0, 1, 2])
        #expect(info.entities.first { $0.name == "Chapter" }?.parent == "Item")
        #expect(info.model == "Library" && info.version == 1)
        #expect(info.integrity == ["ok"])
        #expect(info.fileSize > 0)
    }
}

struct StoreFeatureRefusalTests {
    @Test func testPersistentHistoryStoreOpensForReadingButNotWriting() throws {
        let folder = try TemporaryDirectory()
        let url = folder.file("History.sqlite")
        try Store.create(at: url, model: StoreTests.library).close()
        let connection = try Connection(path: url.path, mode: .readWrite)
        try connection.execute("CREATE TABLE ATRANSACTION (Z_PK INTEGER PRIMARY KEY)")
        try connection.close()

        #expect {
            try Store.open(at: url, mode: .readWrite)
        } throws: { error in
            (error as? StoreError)?.code == .unsupportedFeature
                && "\(error)".contains("uses persistent history tracking (table ATRANSACTION)")
        }
        let reader = try Store.open(at: url, mode: .readOnly)
        #expect(reader.entityRecords.count == 5)
        try reader.close()
    }
}

struct StoreDamageTests {
    /// A `Z_PRIMARYKEY` rebuilt without its primary key and holding the same
    /// `Z_ENT` twice is reported through `info`, not trapped on.
    @Test func testRepeatedEntityNumbersDoNotCrashInfo() throws {
        let folder = try TemporaryDirectory()
        let url = folder.file("Damaged.sqlite")
        try Store.create(at: url, model: StoreTests.library).close()
        let connection = try Connection(path: url.path, mode: .readWrite)
        try connection.execute(
            """
            CREATE TABLE copy AS SELECT * FROM Z_PRIMARYKEY;
            DROP TABLE Z_PRIMARYKEY;
            CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER);
            INSERT INTO Z_PRIMARYKEY SELECT * FROM copy;
            INSERT INTO Z_PRIMARYKEY VALUES (1, 'Author', 0, 0);
            DROP TABLE copy;
            """)
        try connection.close()
        let store = try Store.open(at: url, mode: .readOnly)
        defer { try? store.close() }
        let info = try store.info()
        #expect(info.entities.filter { $0.name == "Author" }.count == 2)
        #expect(info.integrity == ["ok"])
    }
}
