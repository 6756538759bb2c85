import Foundation
import Strata
import Testing

/// `strata import`, run as a user runs it: the bundled samples, a bad
/// record in each policy, re-imports, dry runs and bad usage.
struct ImportCommandTests {
    private let folder: ScratchFolder

    init() throws {
        folder = try ScratchFolder()
    }

    private func count(_ store: String, _ entity: String) throws -> String {
        let outcome = try StrataRunner.run(["query", store, entity, "--count"])
        try #require(outcome.status == 0, "\(outcome.stderr)")
        return outcome.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test func testContactsTxtLinesIntoANewStoreThenQueriedWithoutSchemas() throws {
        let store = folder.path("Contacts.sqlite")
        let outcome = try StrataRunner.run([
            "import", store, "Samples/Contacts/contacts.txt", "--schemas", "Schemas/Contacts",
            "--format", "txt-lines", "--delimiter", ";",
            "--columns", "firstName,lastName,nickname,email,birthday,score,notes",
        ])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(
            outcome.stdout.hasPrefix(
                "Imported 12 Contact records into \(store): 12 inserted, 0 updated, 0 rejected in ")
        )
        #expect(try count(store, "Contact") == "12")
        let query = try StrataRunner.run([
            "query", store, "Contact", "--where", "lastName == 'Петров'", "--format", "csv",
        ])
        #expect(query.stdout.contains("Иван"))
    }

    @Test func testRecipesPlistNestedAndSharedThenReimportedWithAUniqueKey() throws {
        let store = folder.path("Recipes.sqlite")
        let first = try StrataRunner.run([
            "import", store, "Samples/Recipes/recipes.plist", "--schemas", "Schemas/Recipes",
            "--unique", "name", "--json",
        ])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.contains(#""inserted" : 16"#))  // 4 recipes, 9 ingredients, 3 types
        let again = try StrataRunner.run([
            "import", store, "Samples/Recipes/recipes.plist", "--unique", "name",
        ])
        #expect(again.status == 0, "\(again.stderr)")
        // The recipes are updated; their ingredients (owned: cascade) are
        // written again, not added to.
        #expect(again.stdout.contains("9 inserted (9 Ingredient), 4 updated, 0 rejected"))
        #expect(try count(store, "Recipe") == "4")
        #expect(try count(store, "Ingredient") == "9")
        #expect(try count(store, "RecipeType") == "3")
    }

    /// Issue 28, point 8: related objects counted in "inserted" are named.
    @Test func testTheSummarySaysWhichEntitiesTheInsertsAre() throws {
        let store = folder.path("Recipes.sqlite")
        let imported = try StrataRunner.run([
            "import", store, "Samples/Recipes/recipes.plist", "--schemas", "Schemas/Recipes",
        ])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(
            imported.stdout.contains(
                ": 16 inserted (4 Recipe, 9 Ingredient, 3 RecipeType), 0 updated, 0 rejected"),
            "\(imported.stdout)")
    }

    @Test func testBadValueAbortsNamingThePlaceAndLeavesNoStore() throws {
        let input = folder.path("contacts.csv")
        try Data("first,last,birthday\r\nAnna,Rossi,1985-03-02\r\nLuca,Bianchi,31/12/1990\r\n".utf8)
            .write(to: URL(fileURLWithPath: input))
        let store = folder.path("Contacts.sqlite")
        let outcome = try StrataRunner.run([
            "import", store, input, "--schemas", "Schemas/Contacts",
        ])
        #expect(outcome.status == 1)
        #expect(
            outcome.stderr
                == "error: \(input):3:14: '31/12/1990' is not an ISO 8601 date "
                + "(2024-05-01 or 2024-05-01T12:30:00Z); for dates like it, give "
                + "--date-format 'dd/MM/yyyy'\n"
        )
        #expect(!FileManager.default.fileExists(atPath: store))
    }

    @Test func testSkipWritesRejectsThatImportAgainOnceFixed() throws {
        let input = folder.path("contacts.csv")
        try Data("first,last,score\r\nAnna,Rossi,12\r\nLuca,Bianchi,lots\r\nOlga,Petrov,3\r\n".utf8)
            .write(to: URL(fileURLWithPath: input))
        let store = folder.path("Contacts.sqlite")
        let rejects = folder.path("rejects.csv")
        let outcome = try StrataRunner.run([
            "import", store, input, "--schemas", "Schemas/Contacts", "--on-error", "skip",
            "--rejects", rejects,
        ])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stdout.contains("2 inserted, 0 updated, 1 rejected"))
        let text = try String(contentsOfFile: rejects, encoding: .utf8)
        #expect(
            text == "first,last,score,strata_error\r\nLuca,Bianchi,lots,"
                + "\(input):3:14: 'lots' is not a number (score is double)\r\n")
        let fixed = text.replacingOccurrences(of: "lots", with: "99")
        try Data(fixed.utf8).write(to: URL(fileURLWithPath: rejects))
        let again = try StrataRunner.run(["import", store, rejects])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(try count(store, "Contact") == "3")
    }

    @Test func testRaggedRowGoesToTheRejectsWithItsText() throws {
        let input = folder.path("contacts.csv")
        try Data("first,last\nAnna,Rossi\nLuca\nOlga,Petrov\n".utf8).write(
            to: URL(fileURLWithPath: input))
        let rejects = folder.path("rejects.csv")
        let outcome = try StrataRunner.run([
            "import", folder.path("C.sqlite"), input, "--schemas", "Schemas/Contacts", "--on-error",
            "skip",
            "--rejects", rejects,
        ])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stdout.contains("2 inserted, 0 updated, 1 rejected"))
        let text = try String(contentsOfFile: rejects, encoding: .utf8)
        #expect(text.hasPrefix("first,last,strata_error\r\nLuca,\(input):3:"))
    }

    @Test func testJSONLinesWithABadLineSkipped() throws {
        let input = folder.path("entries.ndjson")
        try Data(
            """
            {"title": "Paris", "tags": ["travel", "rain"]}
            {"title": 
            {"title": "Home", "wordCount": 3}

            """.utf8
        ).write(to: URL(fileURLWithPath: input))
        let store = folder.path("Diary.sqlite")
        let rejects = folder.path("rejects.ndjson")
        let outcome = try StrataRunner.run([
            "import", store, input, "--schemas", "Schemas/Diary", "--entity", "DiaryEntry",
            "--on-error", "skip", "--rejects", rejects,
        ])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stdout.contains("1 rejected"))
        #expect(try count(store, "DiaryEntry") == "2")
        #expect(try count(store, "Tag") == "2")
        let text = try String(contentsOfFile: rejects, encoding: .utf8)
        #expect(text.contains("strata_error"))
        #expect(text.contains(":2:"))
    }

    @Test func testDryRunChecksAndWritesNothing() throws {
        let store = folder.path("Diary.sqlite")
        _ = try StrataRunner.run(["create", store, "--schemas", "Schemas/Diary"])
        let before = try Data(contentsOf: URL(fileURLWithPath: store))
        let outcome = try StrataRunner.run([
            "import", store, "Samples/Diary/diary.txt", "--entity", "DiaryEntry", "--dry-run",
        ])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stdout.hasPrefix("Checked (dry run, nothing written) 3 DiaryEntry records"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: store)) == before)
        #expect(try count(store, "DiaryEntry") == "0")
    }

    @Test func testDiaryBlocksWithPhotosByPathAndTags() throws {
        let store = folder.path("Diary.sqlite")
        let outcome = try StrataRunner.run([
            "import", store, "Samples/Diary/diary.txt", "--schemas", "Schemas/Diary", "--entity",
            "DiaryEntry",
        ])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(try count(store, "DiaryEntry") == "3")
        #expect(try count(store, "Tag") == "4")
        let query = try StrataRunner.run([
            "query", store, "DiaryEntry", "--where", "icon != nil", "--count",
        ])
        #expect(query.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "2")
    }

    @Test func testNotesFolderOfTextFiles() throws {
        let store = folder.path("Notes.sqlite")
        let outcome = try StrataRunner.run([
            "import", store, "Samples/Notes/notes", "--schemas", "Schemas/Notes",
        ])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(try count(store, "Note") == "4")
        let books = try StrataRunner.run([
            "query", store, "Note", "--where", "keywords CONTAINS 'books'", "--count",
        ])
        #expect(books.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "1")
    }

    @Test func testBadUsage() throws {
        let outcome = try StrataRunner.run(["import", "x.sqlite", "y.csv", "--format", "xls"])
        #expect(outcome.status == 64)
        #expect(outcome.stderr.hasPrefix("error: '--format' must be one of csv, tsv, txt-lines"))
        let rejects = try StrataRunner.run(["import", "x.sqlite", "y.csv", "--rejects", "r.csv"])
        #expect(rejects.status == 64)
        let missing = try StrataRunner.run([
            "import", folder.path("none.sqlite"), folder.path("none.csv"),
        ])
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("no such file or folder"))
    }
}
