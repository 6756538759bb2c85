import Foundation
import Testing

/// `strata query` on a Notes store made by `strata create` and filled with
/// the `sqlite3` shell.
struct QueryCommandTests {
    private let folder: ScratchFolder
    private let store: String

    init() throws {
        folder = try ScratchFolder()
        store = folder.path("Notes.sqlite")
        let created = try StrataRunner.run(["create", store, "--schemas", "Schemas/Notes"])
        try #require(created.status == 0, "\(created.stderr)")
        let shell = Process()
        shell.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        shell.arguments = [
            "sqlite3", store,
            """
            INSERT INTO ZNOTE (Z_PK, Z_ENT, Z_OPT, ZDATE, ZBODY, ZKEYWORDS, ZTITLE) VALUES
              (1, 1, 1, 0, 'Alle Vögel sind schon da', 'birds', 'Song'),
              (2, 1, 1, 86400, 'Im Weltall, ganz allein', 'space', 'Space'),
              (3, 1, 1, 172800.5, NULL, NULL, 'Empty, "quoted"');
            UPDATE Z_PRIMARYKEY SET Z_MAX = 3;
            """,
        ]
        try shell.run()
        shell.waitUntilExit()
        try #require(shell.terminationStatus == 0)
    }

    private func query(_ arguments: [String]) throws -> StrataRunner.Outcome {
        try StrataRunner.run(["query", store, "Note", "--schemas", "Schemas/Notes"] + arguments)
    }

    @Test func testTableOfEveryNote() throws {
        let outcome = try query([])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(
            outcome.stdout == """
                id       body                      date                      keywords  title
                Note/p1  Alle Vögel sind schon da  2001-01-01T00:00:00Z      birds     Song
                Note/p2  Im Weltall, ganz allein   2001-01-02T00:00:00Z      space     Space
                Note/p3                            2001-01-03T00:00:00.500Z            Empty, "quoted"

                """)
        #expect(outcome.stderr == "")
    }

    /// Issue 15: ESC, BEL and CR from store data reached the terminal raw.
    @Test func testTableEscapesControlCharactersFromTheStore() throws {
        let shell = Process()
        shell.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        shell.arguments = [
            "sqlite3", store,
            "UPDATE ZNOTE SET ZTITLE = 'a' || char(27) || '[31mred' || char(7) || char(13) || 'b'"
                + " || char(9) || 'c' || char(10) || 'd' || char(127) || char(155) WHERE Z_PK = 1",
        ]
        try shell.run()
        shell.waitUntilExit()
        try #require(shell.terminationStatus == 0)

        let table = try query(["--where", "title BEGINSWITH 'a'"])
        #expect(table.status == 0, "\(table.stderr)")
        #expect(
            table.stdout == """
                id       body                      date                  keywords  title
                Note/p1  Alle Vögel sind schon da  2001-01-01T00:00:00Z  birds     a\\u{1B}[31mred\\u{7}\\rb\\tc\\nd\\u{7F}\\u{9B}

                """)
        // JSON escapes C0 itself; the value comes through whole.
        let json = try query(["--where", "title BEGINSWITH 'a'", "--format", "json"])
        #expect(
            json.stdout.contains(
                #""title" : "a\u001b[31mred\u0007\rb\tc\nd"# + "\u{7F}\u{9B}\""))
    }

    @Test func testFoldedSearchNewestFirstAsJSON() throws {
        let outcome = try query([
            "--where", "body CONTAINS[cd] %@", "--arg", "ALL", "--sort", "-date", "--format",
            "json",
        ])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(
            outcome.stdout == """
                [
                  {
                    "body" : "Im Weltall, ganz allein",
                    "date" : "2001-01-02T00:00:00Z",
                    "id" : "Note/p2",
                    "keywords" : "space",
                    "title" : "Space"
                  },
                  {
                    "body" : "Alle Vögel sind schon da",
                    "date" : "2001-01-01T00:00:00Z",
                    "id" : "Note/p1",
                    "keywords" : "birds",
                    "title" : "Song"
                  }
                ]

                """)
    }

    @Test func testDateArgumentCSVAndCount() throws {
        let csv = try query(["--where", "date >= %@", "--arg", "2001-01-02", "--format", "csv"])
        #expect(
            csv.stdout == """
                id,body,date,keywords,title
                Note/p2,"Im Weltall, ganz allein",2001-01-02T00:00:00Z,space,Space
                Note/p3,,2001-01-03T00:00:00.500Z,,"Empty, ""quoted""\"

                """)
        let count = try query(["--where", "date >= %@", "--arg", "2001-01-02", "--count"])
        #expect(count.stdout == "2\n")
    }

    /// Issue 13: Core Data stores seconds since 2001 as a double;
    /// `464441952.529884` came back rounded to milliseconds. JSON and CSV
    /// now carry every stored digit; `--fields` picks the columns.
    @Test func testDatesAtFullPrecisionInJSONAndCSV() throws {
        let shell = Process()
        shell.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        shell.arguments = [
            "sqlite3", store, "UPDATE ZNOTE SET ZDATE = 464441952.529884 WHERE Z_PK = 1",
        ]
        try shell.run()
        shell.waitUntilExit()
        try #require(shell.terminationStatus == 0)

        let csv = try query([
            "--where", "title == 'Song'", "--fields", "title,date", "--format", "csv",
        ])
        #expect(csv.status == 0, "\(csv.stderr)")
        #expect(csv.stdout == "id,title,date\nNote/p1,Song,2015-09-20T11:39:12.529884Z\n")
        let json = try query(["--where", "title == 'Song'", "--fields", "date", "--format", "json"])
        #expect(json.stdout.contains(#""date" : "2015-09-20T11:39:12.529884Z""#), "\(json.stdout)")
        // Whole seconds stay as they were; a half second keeps three digits.
        let others = try query([
            "--where", "title != 'Song'", "--fields", "date", "--format", "csv",
        ])
        #expect(
            others.stdout
                == "id,date\nNote/p2,2001-01-02T00:00:00Z\nNote/p3,2001-01-03T00:00:00.500Z\n")
    }

    /// Issue 13: relationships are part of the object: a to-one as the
    /// destination's id, a to-many as a count (its ids in JSON), and key
    /// paths through to-ones with `--fields`.
    @Test func testRelationshipsAsIdsCountsAndKeyPaths() throws {
        let recipes = folder.path("Recipes.sqlite")
        let load = try StrataRunner.run([
            "import", recipes, "Samples/Recipes/recipes.plist", "--schemas", "Schemas/Recipes",
        ])
        try #require(load.status == 0, "\(load.stderr)")
        func recipeQuery(_ arguments: [String]) throws -> StrataRunner.Outcome {
            try StrataRunner.run(
                [
                    "query", recipes, "Recipe", "--schemas", "Schemas/Recipes", "--where",
                    "name == 'Chocolate Cake'",
                ] + arguments)
        }
        let table = try recipeQuery([])
        #expect(table.status == 0, "\(table.stderr)")
        #expect(table.stdout.hasPrefix("id         instructions"))
        #expect(table.stdout.contains("  image  ingredients  type\n"), "\(table.stdout)")
        #expect(table.stdout.hasSuffix("  3            RecipeType/p1\n"), "\(table.stdout)")

        let csv = try recipeQuery([
            "--fields", "name,type,type.name,ingredients", "--format", "csv",
        ])
        #expect(
            csv.stdout
                == "id,name,type,type.name,ingredients\n"
                + "Recipe/p1,Chocolate Cake,RecipeType/p1,Dessert,3\n")
        let json = try recipeQuery(["--fields", "ingredients,image", "--format", "json"])
        #expect(
            json.stdout == """
                [
                  {
                    "id" : "Recipe/p1",
                    "image" : null,
                    "ingredients" : [
                      "Ingredient/p1",
                      "Ingredient/p2",
                      "Ingredient/p3"
                    ]
                  }
                ]

                """)

        let unknown = try recipeQuery(["--fields", "type.nope"])
        #expect(unknown.status == 1)
        #expect(
            unknown.stderr
                == "error: --fields 'type.nope': RecipeType has no stored property 'nope'\n")
        let toMany = try recipeQuery(["--fields", "ingredients.name"])
        #expect(toMany.status == 1)
        #expect(toMany.stderr.contains("Recipe.ingredients is to-many"))
    }

    @Test func testSortLimitOffset() throws {
        let outcome = try query(["--sort", "title", "--limit", "1", "--offset", "1"])
        #expect(
            outcome.stdout == """
                id       body                      date                  keywords  title
                Note/p1  Alle Vögel sind schon da  2001-01-01T00:00:00Z  birds     Song

                """)
    }

    @Test func testBadPredicatesPointAtTheColumn() throws {
        let syntax = try query(["--where", "title =="])
        #expect(syntax.status == 1)
        #expect(syntax.stdout == "")
        #expect(
            syntax.stderr == """
                error: predicate syntax error at column 9: expected a key path or value after '==', \
                found the end of the predicate
                  title ==
                          ^

                """)
        let unknown = try query(["--where", "title == 'x' AND nope == 3"])
        #expect(unknown.status == 1)
        #expect(unknown.stderr.hasSuffix("  title == 'x' AND nope == 3\n                   ^\n"))
        let date = try query(["--where", "date > %@", "--arg", "yesterday"])
        #expect(date.status == 1)
        #expect(
            date.stderr == """
                error: predicate error at column 1: 'yesterday' is not an ISO-8601 date
                  date > %@
                  ^

                """)
    }

    /// Issue 15, point 4: 30,000 nested parentheses crashed the parser
    /// (SIGSEGV); now a located error, with the predicate cut around the
    /// column.
    @Test func testDeeplyNestedPredicateIsALocatedError() throws {
        let text =
            String(repeating: "(", count: 30_000) + "title == nil"
            + String(repeating: ")", count: 30_000)
        let outcome = try query(["--where", text])
        #expect(outcome.status == 1)
        #expect(outcome.stdout == "")
        #expect(
            outcome.stderr == "error: predicate syntax error at column 101: the predicate nests "
                + "deeper than 100 levels at '('; expected at most 100 levels of NOT, '(' and "
                + "'{'\n  …" + String(repeating: "(", count: 100) + "…\n  "
                + String(repeating: " ", count: 51) + "^\n")
    }

    /// 5,000 ANDs reached SQLite ("Expression tree is too large"); now
    /// refused first, quoting the predicate.
    @Test func testPredicateTooLargeForSQLiteIsALocatedError() throws {
        let text = Array(repeating: "title != nil", count: 5_000).joined(separator: " AND ")
        let outcome = try query(["--where", text])
        #expect(outcome.status == 1)
        #expect(outcome.stdout == "")
        #expect(
            outcome.stderr.hasPrefix(
                "error: predicate error at column 1: the predicate has 5000 comparisons; "
                    + "SQLite takes at most 500 in one query"))
        #expect(outcome.stderr.contains("\n  title != nil AND title != nil AND"))
    }

    @Test func testBadUsage() throws {
        let format = try query(["--format", "xml"])
        #expect(format.status == 64)
        #expect(
            format.stderr.hasPrefix("error: '--format' must be table, json or csv, not 'xml'\n"))
    }
}
