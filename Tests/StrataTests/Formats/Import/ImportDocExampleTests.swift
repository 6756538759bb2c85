import Foundation
import Testing

@testable import Strata
@testable import StrataFormats
@testable import StrataSchema
@testable import StrataStore

/// The code examples of the import documentation (the ImportingData
/// article, ``Importer``, ``ImportOptions``, ``ImportError`` and
/// ``Store/create(at:model:filling:)``), compiled and run as written.
struct ImportDocExampleTests {
    @Test func testImportingDataArticleExample() throws {
        let folder = try TemporaryDirectory()
        let model = try SchemaChain.load(
            directory: ContextFixture.schemas.appendingPathComponent("Contacts")
        ).newest
        let storeURL = folder.file("Contacts.sqlite")
        try Store.create(at: storeURL, model: model).close()
        let contactsFile = folder.file("contacts.txt")
        try Data("Anna\tRossi\tann\n".utf8).write(to: contactsFile)

        // The article's example as written (ArticlesDocExamples keeps the copy), run.
        try ArticlesDocExamples.importingData(storeURL: storeURL, contactsFile: contactsFile)
        let store = try Store.open(at: storeURL)
        defer { try? store.close() }
        #expect(
            try store.connection.scalar("SELECT count(*) FROM ZCONTACT WHERE ZNICKNAME = 'ann'")
                == .integer(1))
    }

    @Test func testImporterAndImportErrorExamples() throws {
        let folder = try TemporaryDirectory()
        let model = try SchemaChain.load(
            directory: ContextFixture.schemas.appendingPathComponent("Contacts")
        ).newest
        let storeURL = folder.file("Contacts.sqlite")
        try Store.create(at: storeURL, model: model).close()
        let csv = folder.file("contacts.csv")
        try Data("first,last,score\nAnna,Rossi,x\n".utf8).write(to: csv)
        // From Importer's doc comment (FormatsDocExamples compiles it as written), with the
        // file's whole path: the process's folder is not a test's to change while others run.
        let store = try Store.open(at: storeURL)
        let reader = try CSVReader(path: csv.path)
        let importer = try Importer(
            store: store, model: model, options: ImportOptions(entity: "Contact"))
        // From ImportError's doc comment.
        var line = 0
        do {
            _ = try importer.run(reader)
        } catch let error as ImportError where error.code == .invalidValue {
            print(error.position.line, error.message)
            line = error.position.line
        }
        #expect(line == 2)
    }

    /// Issue 29, point 6: one call does what `strata import` does — the
    /// format guessed, the reading options in the one options value, the
    /// model the store records, the rejects file — and a re-import with a
    /// unique key updates.
    @Test func testOneCallImportsAndReimportsByUniqueKey() throws {
        let folder = try TemporaryDirectory()
        let model = try SchemaChain.load(
            directory: ContextFixture.schemas.appendingPathComponent("Contacts")
        ).newest
        let storeURL = folder.file("Contacts.sqlite")
        let store = try Store.create(at: storeURL, model: model)
        defer { try? store.close() }  // Read below.
        let contactsFile = folder.file("contacts.txt")
        try Data(
            "Anna;Rossi;ann;ann@example.org;1985-03-02;71.25;hiking\n"
                .appending("Luca;Bianchi;luc;luc@example.org;1990-11-17;64;Neighbour\n").utf8
        ).write(to: contactsFile)
        let first = try ArticlesDocExamples.importerImport(store: store, contactsFile: contactsFile)
        #expect((first.inserted, first.updated) == (2, 0))
        try Data("Anna;Rossi;anna;ann@example.org;1985-03-02;71.25;hiking\n".utf8)
            .write(to: contactsFile)
        let again = try ArticlesDocExamples.importerImport(store: store, contactsFile: contactsFile)
        #expect((again.inserted, again.updated) == (0, 1))
        #expect(
            try store.connection.scalar(
                "SELECT ZNICKNAME FROM ZCONTACT WHERE ZEMAIL = 'ann@example.org'")
                == .text("anna"))

        // Malformed lines go to the rejects file, in the input's format.
        try Data("Bad;Line;x;not-an-email;yesterday;heavy;?\n".utf8).write(to: contactsFile)
        var options = ImportOptions(entity: "Contact")
        options.delimiter = UInt8(ascii: ";")
        options.columns = [
            "firstName", "lastName", "nickname", "email", "birthday", "score", "notes",
        ]
        options.errorPolicy = .skip
        options.rejectsFile = folder.file("bad.txt")
        let skipped = try Importer.import(contactsFile, into: store, options: options)
        #expect(skipped.rejected == 1)
        #expect(FileManager.default.fileExists(atPath: folder.file("bad.txt").path))

        // A name and contents that tell no format (here: no file at all).
        options.format = nil
        let error = try #require(throws: ImportError.self) {
            try Importer.import(folder.file("missing.xyz"), into: store, options: options)
        }
        #expect(error.message.contains("cannot tell the format"), "\(error)")
    }

    @Test func testImportOptionsExample() {
        var options = ImportOptions(entity: "Contact")
        options.fieldMap["born"] = "birthday"
        options.uniqueKey = ["email"]
        options.errorPolicy = .skip
        #expect(options.uniqueKey == ["email"])
    }

    @Test func testStoreCreateFillingExample() throws {
        let folder = try TemporaryDirectory()
        let url = folder.file("Notes.sqlite")
        let model = try SchemaChain.load(
            directory: ContextFixture.schemas.appendingPathComponent("Notes")
        ).newest
        let store = try Store.create(at: url, model: model) { fresh in
            let context = try Context(store: fresh, model: model)
            try context.insert("Note").set("title", "Welcome")
            try context.save()
        }
        #expect(try store.connection.scalar("PRAGMA journal_mode")?.stringValue == "wal")
        #expect(try store.connection.scalar("SELECT ZTITLE FROM ZNOTE")?.stringValue == "Welcome")
        try store.close()
    }
}

/// A new store filled before it appears: a fill that fails leaves nothing.
struct StoreCreateFillingTests {
    @Test func testFillThatThrowsLeavesNoFileAtOrBesideTheTarget() throws {
        let folder = try TemporaryDirectory()
        let url = folder.file("Notes.sqlite")
        let model = try SchemaChain.load(
            directory: ContextFixture.schemas.appendingPathComponent("Notes")
        ).newest
        struct Stop: Error {}
        #expect(throws: Stop.self) {
            try Store.create(at: url, model: model) { fresh in
                try fresh.connection.execute(
                    "INSERT INTO ZNOTE (Z_PK, Z_ENT, Z_OPT, ZTITLE, ZDATE) VALUES (1, 1, 1, 'x', 0)"
                )
                throw Stop()
            }
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path) == [])
    }
}
