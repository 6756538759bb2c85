import Foundation
import Strata
import Testing

/// Issue 27, point 9: a store is input, every part of it. Its model name is
/// a name, not a path; a seed's triggers and views are not copied; rows
/// whose `Z_ENT` names no entity are shown by `info` and refused by
/// `export`, `archive` and `seed` (which would leave them out).
struct StoreInputCommandTests {
    private let folder: ScratchFolder

    init() throws {
        folder = try ScratchFolder()
    }

    /// A Contacts store with the 12 sample contacts.
    private func contacts(_ name: String = "Contacts.sqlite") throws -> String {
        let store = folder.path(name)
        let outcome = try StrataRunner.run([
            "import", store, "Samples/Contacts/contacts.txt", "--schemas", "Schemas/Contacts",
            "--format", "txt-lines", "--delimiter", ";",
            "--columns", "firstName,lastName,nickname,email,birthday,score,notes",
        ])
        try #require(outcome.status == 0, "\(outcome.stderr)")
        return store
    }

    private func execute(_ store: String, _ sql: String) throws {
        let connection = try Connection(path: store, mode: .readWrite)
        try connection.execute(sql)
        try connection.close()
    }

    @Test func testASeedsModelNameThatIsAPathIsRefused() throws {
        let seed = try contacts("seed.sqlite")
        let opened = try Store.open(at: URL(fileURLWithPath: seed))
        var metadata = opened.metadata
        metadata.modelName = "../../../../tmp/evil"
        try opened.writeMetadata(metadata)
        try opened.close()
        let app = folder.path("app.sqlite")
        let outcome = try StrataRunner.run(["seed", app, "--from", seed])
        #expect(outcome.status == 1)
        #expect(
            outcome.stderr.contains(
                #"names its model "../../../../tmp/evil", which is not a model name"#),
            "\(outcome.stderr)")
        #expect(!FileManager.default.fileExists(atPath: app))
    }

    @Test func testASeedsTriggersAndViewsAreNotCopied() throws {
        let seed = try contacts("seed.sqlite")
        try execute(
            seed,
            "CREATE TRIGGER eat AFTER INSERT ON ZCONTACT BEGIN DELETE FROM ZCONTACT"
                + " WHERE Z_PK = NEW.Z_PK; END; CREATE VIEW everyone AS SELECT * FROM ZCONTACT")
        let app = folder.path("app.sqlite")
        let seeded = try StrataRunner.run([
            "seed", app, "--from", seed, "--schemas", "Schemas/Contacts",
        ])
        try #require(seeded.status == 0, "\(seeded.stderr)")
        let connection = try Connection(path: app, mode: .readOnly)
        let others = try connection.scalar(
            "SELECT COUNT(*) FROM sqlite_master WHERE type IN ('trigger', 'view')")
        #expect(others?.int64Value == 0)
        try connection.close()
        let input = folder.path("more.csv")
        try Data("firstName,lastName\nAnn,Lee\n".utf8).write(to: URL(fileURLWithPath: input))
        let imported = try StrataRunner.run(["import", app, input, "--entity", "Contact"])
        #expect(imported.status == 0, "\(imported.stderr)")
        let count = try StrataRunner.run(["query", app, "Contact", "--count"])
        #expect(count.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "13")
    }

    @Test func testRowsOfNoEntityAreShownByInfoAndRefusedByExportArchiveAndSeed() throws {
        let store = try contacts()
        try execute(
            store,
            "INSERT INTO ZCONTACT (Z_PK, Z_ENT, Z_OPT, ZFIRSTNAME, ZLASTNAME)"
                + " VALUES (100, 99, 1, 'Lost', 'One'), (101, 99, 1, 'Lost', 'Two')")
        let info = try StrataRunner.run(["info", store])
        #expect(info.status == 0, "\(info.stderr)")
        #expect(info.stdout.contains("Rows whose Z_ENT names no entity"), "\(info.stdout)")
        #expect(info.stdout.contains("ZCONTACT  99     2"), "\(info.stdout)")
        let json = try StrataRunner.run(["info", store, "--json"])
        #expect(json.stdout.contains(#""entity" : "99""#), "\(json.stdout)")

        let message = "2 rows of ZCONTACT with Z_ENT 99: their Z_ENT names no entity"
        let out = folder.path("out.csv")
        let export = try StrataRunner.run(["export", store, "--entity", "Contact", "-o", out])
        #expect(export.status == 1)
        #expect(
            export.stderr.contains(
                "Contact/p100 (a row of Contact's table): its Z_ENT 99 names no entity, so the"
                    + " export would leave it out"), "\(export.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out))

        let zip = folder.path("out.zip")
        let archive = try StrataRunner.run(["archive", store, "-o", zip])
        #expect(archive.status == 1)
        #expect(archive.stderr.contains(message + ", so the archive would leave them out"))
        #expect(!FileManager.default.fileExists(atPath: zip))

        let app = folder.path("app.sqlite")
        let seed = try StrataRunner.run(["seed", app, "--from", store])
        #expect(seed.status == 1)
        #expect(seed.stderr.contains(message + ", so seeding would leave them out"))
        #expect(!FileManager.default.fileExists(atPath: app))
    }
}
