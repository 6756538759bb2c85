import Foundation
import Testing

/// `strata create`, `strata info` and `strata demo`.
struct StoreCommandTests {
    @Test(arguments: SchemaCommandTests.models)
    func testCreateThenInfoIdentifiesTheVersion(model: String) throws {
        let folder = try ScratchFolder()
        let store = folder.path("\(model).sqlite")
        let created = try StrataRunner.run(["create", store, "--schemas", "Schemas/\(model)"])
        #expect(created.status == 0, "\(created.stderr)")
        let newest = SchemaCommandTests.newest[model] ?? 1
        #expect(created.stdout.hasPrefix("Created \(store): \(model) version \(newest), "))

        let info = try StrataRunner.run(["info", store, "--schemas", "Schemas/\(model)"])
        #expect(info.status == 0, "\(info.stderr)")
        #expect(info.stdout.contains("\nModel      \(model), version \(newest)"))
        #expect(info.stdout.contains("\nIntegrity  ok\n"))
        #expect(info.stdout.contains("\nFramework  1338\n"))
    }

    @Test func testInfoJSON() throws {
        let folder = try ScratchFolder()
        let store = folder.path("Diary.sqlite")
        _ = try StrataRunner.run(["create", store, "--schemas", "Schemas/Diary"])
        let info = try StrataRunner.run(["info", store, "--json"])
        #expect(info.status == 0)
        let object =
            try JSONSerialization.jsonObject(with: Data(info.stdout.utf8)) as? [String: Any]
        #expect(object?["model"] as? String == "Diary")
        #expect(object?["version"] as? Int == 4)
        #expect(object?["integrity"] as? [String] == ["ok"])
        let entities = object?["entities"] as? [[String: Any]]
        #expect(entities?.compactMap { $0["name"] as? String } == ["DiaryEntry", "Medium", "Tag"])
        #expect(entities?.compactMap { $0["rows"] as? Int } == [0, 0, 0])
    }

    @Test func testCreateRefusesAnExistingFile() throws {
        let folder = try ScratchFolder()
        let store = folder.path("Diary.sqlite")
        try Data("keep me".utf8).write(to: URL(fileURLWithPath: store))
        let outcome = try StrataRunner.run(["create", store, "--schemas", "Schemas/Diary"])
        #expect(outcome.status == 1)
        #expect(outcome.stdout == "")
        #expect(outcome.stderr == "error: \(store): a file already exists here; not replacing it\n")
        #expect(try Data(contentsOf: URL(fileURLWithPath: store)) == Data("keep me".utf8))
    }

    @Test func testCreateWithoutSchemasIsBadUsage() throws {
        let outcome = try StrataRunner.run(["create", "x.sqlite"])
        #expect(outcome.status == 64)
        #expect(outcome.stderr.hasPrefix("error: missing '--schemas <dir>'\n"))
    }

    @Test func testInfoOnATextFileFailsNamingIt() throws {
        let folder = try ScratchFolder()
        let file = folder.path("notes.txt")
        try Data(String(repeating: "not a database\n", count: 100).utf8).write(
            to: URL(fileURLWithPath: file))
        let outcome = try StrataRunner.run(["info", file])
        #expect(outcome.status == 1)
        #expect(outcome.stderr == "error: \(file): not an SQLite database\n")
    }

    /// Nearest counts differing properties (issue 16): Contacts version 1
    /// has fewer properties to differ by than version 2.
    @Test func testInfoWithTheWrongModelNamesNearestVersion() throws {
        let folder = try ScratchFolder()
        let store = folder.path("Notes.sqlite")
        _ = try StrataRunner.run(["create", store, "--schemas", "Schemas/Notes"])
        let outcome = try StrataRunner.run(["info", store, "--schemas", "Schemas/Contacts"])
        #expect(outcome.status == 1)
        #expect(
            outcome.stderr == """
                error: \(store): matches no version of Contacts; nearest is version 1, which differs in: \
                Contact (only in the schema), Note (only in the store); the store holds Notes version 1

                """)
    }

    @Test func testDemoCreatesAndDescribesTheFourSampleStores() throws {
        let folder = try ScratchFolder()
        let demo = folder.path("demo")
        let outcome = try StrataRunner.run(["demo", demo])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        for model in SchemaCommandTests.models where model != "Recipes" {
            #expect(
                outcome.stdout.contains(
                    "== \(model): created \(demo)/\(model).sqlite at version "
                        + "\(SchemaCommandTests.newest[model] ?? 1)\n"))
            #expect(FileManager.default.fileExists(atPath: "\(demo)/\(model).sqlite"))
        }
        // Recipes is seeded on a first start (SeedCommandTests checks that part).
        #expect(outcome.stdout.contains("== Recipes: a store seeded on first run\n"))
        #expect(FileManager.default.fileExists(atPath: "\(demo)/Recipes.sqlite"))
        // Four seed stores and the migrated diary.
        #expect(outcome.stdout.components(separatedBy: "Integrity  ok").count == 6)
        // A second run replaces the demo's own stores.
        #expect(try StrataRunner.run(["demo", demo]).status == 0)
    }

    @Test func testDemoMigratesAVersionOneDiaryAndShowsWhatChanged() throws {
        let folder = try ScratchFolder()
        let demo = folder.path("demo")
        let outcome = try StrataRunner.run(["demo", demo])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let stdout = outcome.stdout
        #expect(
            stdout.contains("Diary-v1-migrated.sqlite written at version 1 (4 entries, 3 media"))
        #expect(stdout.contains("version 1 to 4 in 3 stages"))
        #expect(stdout.contains("needs-mapping  add-attribute     DiaryEntry.title  4     mapping"))
        #expect(stdout.contains("Migrated from version 1 to 4 (stages 1-2, 2-3, 3-4)."))
        #expect(stdout.contains("  Paris                 day one   15     paris travel    1"))
        #expect(stdout.contains("  Entry of 3 June 2026            0                      0"))
        #expect(
            !FileManager.default.fileExists(
                atPath: "\(demo)/Diary-v1-migrated.sqlite.strata-backup-v1"))
    }

    @Test func testInfoOnAnSQLiteFileThatIsNotACoreDataStore() throws {
        let folder = try ScratchFolder()
        let file = folder.path("people.sqlite")
        let sqlite = Process()
        sqlite.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        sqlite.arguments = [file, "CREATE TABLE people (name TEXT)"]
        try sqlite.run()
        sqlite.waitUntilExit()
        let before = try Data(contentsOf: URL(fileURLWithPath: file))
        let outcome = try StrataRunner.run(["info", file])
        #expect(outcome.status == 1)
        #expect(outcome.stderr == "error: \(file): not a Core Data store (no Z_METADATA table)\n")
        #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == before)
    }

    @Test func testCreateWithBrokenSchemasCreatesNothing() throws {
        let folder = try ScratchFolder()
        let store = folder.path("Diary.sqlite")
        let outcome = try StrataRunner.run([
            "create", store, "--schemas", "Samples/BrokenSchemas/Diary",
        ])
        #expect(outcome.status == 1)
        #expect(outcome.stderr.hasPrefix("error: 10 problems in the schema:\n"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).isEmpty)
    }

    @Test func testInfoTextStartsWithStoreAndModel() throws {
        let folder = try ScratchFolder()
        _ = try StrataRunner.run([
            "create", folder.path("Notes.sqlite"), "--schemas", "Schemas/Notes",
        ])
        let outcome = try StrataRunner.run(["info", folder.path("Notes.sqlite")])
        #expect(
            outcome.stdout.hasPrefix(
                "Store      \(folder.path("Notes.sqlite"))\nModel      Notes, version 1 (identifier \"1.0\")\n"
            ))
    }
}
