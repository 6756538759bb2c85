import Foundation
import Strata
import Testing

/// `strata migrate`: dry runs that write nothing, refusals with exit 1, runs
/// that upgrade the store, bad usage with 64.
struct MigrateCommandTests {
    /// A Notes chain: v2 renames `body`, adds `pinned` (default) and drops
    /// `keywords` (lossy); and a v1 store with one note that has keywords.
    private func setUp() throws -> (ScratchFolder, schemas: String, store: String) {
        let scratch = try ScratchFolder()
        let v1 = """
            "title": { "type": "string" }, "body": { "type": "string", "optional": true },
            "keywords": { "type": "string", "optional": true }
            """
        let v2 = """
            "title": { "type": "string" },
            "text": { "type": "string", "optional": true, "renamedFrom": "body" },
            "pinned": { "type": "boolean", "default": false }
            """
        let (schemas, store) = try scratch.notesChain([v1, v2])
        return (scratch, schemas, store)
    }

    private func insertNote(into store: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        process.arguments = [
            store,
            "INSERT INTO ZNOTE (Z_PK, Z_ENT, Z_OPT, ZTITLE, ZBODY, ZKEYWORDS) "
                + "VALUES (1, 1, 1, 'Hello', 'World', 'greeting'); "
                + "UPDATE Z_PRIMARYKEY SET Z_MAX = 1;",
        ]
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
    }

    private func bytes(_ path: String) throws -> Data {
        try Data(contentsOf: URL(fileURLWithPath: path))
    }

    @Test func testDryRunPrintsThePlanAndTheBlockingFindingAndWritesNothing() throws {
        let (scratch, schemas, store) = try setUp()
        defer { withExtendedLifetime(scratch) {} }  // Keeps the folder until the end.
        try insertNote(into: store)
        let before = try bytes(store)

        let outcome = try StrataRunner.run(["migrate", store, "--schemas", schemas, "--dry-run"])

        #expect(outcome.status == 1)
        #expect(outcome.stdout.contains("version 1 to 2 in 1 stage"))
        #expect(outcome.stdout.contains("STAGE 1-2 (in-place)"))
        #expect(outcome.stdout.contains("lossy     remove-attribute  Note.keywords"))
        #expect(
            outcome.stdout.contains(
                "blocking [1-2]: 1 values of Note.keywords would be dropped"))
        #expect(outcome.stderr.contains("nothing was changed"))
        #expect(try bytes(store) == before)
        #expect(!FileManager.default.fileExists(atPath: store + ".strata-backup-v1"))
    }

    /// Issue 13: the Recipes 1-2 mapping reads "1 hour" and "20min" as
    /// minutes; text it cannot read is named by the dry run, with its
    /// object, and blocks until acknowledged.
    @Test func testDryRunNamesPrepTimesTheMappingCannotRead() throws {
        let scratch = try ScratchFolder()
        let store = scratch.path("Recipes.sqlite")
        let create = try StrataRunner.run([
            "create", store, "--schemas", "Schemas/Recipes", "--version", "1",
        ])
        #expect(create.status == 0, "\(create.stderr)")
        let input = scratch.path("recipes.ndjson")
        try Data(
            """
            {"name": "Bread", "prepTime": "1 hour"}
            {"name": "Porridge", "prepTime": "overnight"}
            {"name": "Salad", "prepTime": "20min"}

            """.utf8
        ).write(to: URL(fileURLWithPath: input))
        let load = try StrataRunner.run([
            "import", store, input, "--schemas", "Schemas/Recipes", "--entity", "Recipe",
        ])
        #expect(load.status == 0, "\(load.stderr)")
        let before = try bytes(store)

        let dry = try StrataRunner.run([
            "migrate", store, "--schemas", "Schemas/Recipes", "--dry-run",
        ])
        #expect(dry.status == 1)
        #expect(
            dry.stdout.contains(
                "blocking [1-2]: 1 values of Recipe.prepTime cannot be read by prepTime's "
                    + "expression in 1-2.mapping.json and would become nil: Recipe p2 "
                    + "\"overnight\"; acknowledge it with \"discard\": [\"Recipe.prepTime\"] "
                    + "in 1-2.mapping.json or pass --accept-lossy"), "\(dry.stdout)")
        #expect(try bytes(store) == before)
    }

    @Test func testDryRunJSONSaysTheMigrationCanRunWhenLossIsAccepted() throws {
        let (scratch, schemas, store) = try setUp()
        defer { withExtendedLifetime(scratch) {} }  // Keeps the folder until the end.
        try insertNote(into: store)

        let outcome = try StrataRunner.run([
            "migrate", store, "--schemas", schemas, "--dry-run", "--accept-lossy", "--json",
        ])

        #expect(outcome.status == 0, "\(outcome.stderr)")
        let json = try #require(
            try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any])
        #expect(json["canRun"] as? Bool == true)
        #expect(json["currentVersion"] as? Int == 1 && json["targetVersion"] as? Int == 2)
        let stages = try #require(json["stages"] as? [[String: Any]])
        let steps = try #require(stages.first?["steps"] as? [[String: Any]])
        #expect(
            steps.map { $0["kind"] as? String } == [
                "remove-attribute", "add-attribute", "rename-attribute",
            ])
        #expect(steps.first?["resolution"] as? String == "accepted-loss")
    }

    @Test func testRunUpgradesTheStoreAndASecondRunHasNothingToDo() throws {
        let (scratch, schemas, store) = try setUp()
        defer { withExtendedLifetime(scratch) {} }  // Keeps the folder until the end.
        try insertNote(into: store)

        let refused = try StrataRunner.run(["migrate", store, "--schemas", schemas])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("nothing was changed"))

        let run = try StrataRunner.run(["migrate", store, "--schemas", schemas, "--accept-lossy"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.hasPrefix("Migrated from version 1 to 2 (stages 1-2)."))
        #expect(!FileManager.default.fileExists(atPath: store + ".strata-backup-v1"))

        let query = try StrataRunner.run([
            "query", store, "Note", "--schemas", schemas, "--format", "csv",
        ])
        #expect(query.status == 0, "\(query.stderr)")
        #expect(query.stdout.contains("Hello"))
        #expect(query.stdout.contains("World"))

        let again = try StrataRunner.run(["migrate", store, "--schemas", schemas])
        #expect(again.status == 0)
        #expect(again.stdout == "Up to date: version 2.\n")
    }

    @Test func testBadMappingFileIsReportedWithItsPlaceAndNothingIsWritten() throws {
        let (scratch, schemas, store) = try setUp()
        defer { withExtendedLifetime(scratch) {} }  // Keeps the folder until the end.
        try insertNote(into: store)
        let mapping = """
            {
              "format": "strata-mapping/1", "from": 1, "to": 2,
              "entities": { "Note": { "attributes": { "pinned": "length(titel) > 3" } } },
              "discard": ["Note.keywords"]
            }
            """
        try Data(mapping.utf8).write(to: URL(fileURLWithPath: "\(schemas)/1-2.mapping.json"))
        let before = try bytes(store)

        let outcome = try StrataRunner.run(["migrate", store, "--schemas", schemas])

        #expect(outcome.status == 1)
        #expect(
            outcome.stderr.contains(
                "1-2.mapping.json:3:53: $.entities.Note.attributes.pinned: column 8 of the "
                    + "expression: Note has no property 'titel' in version 1"))
        #expect(outcome.stderr.contains("  length(titel) > 3\n         ^"))
        #expect(try bytes(store) == before)
    }

    @Test func testMappingThatAcknowledgesTheLossLetsTheRunGoOn() throws {
        let (scratch, schemas, store) = try setUp()
        defer { withExtendedLifetime(scratch) {} }  // Keeps the folder until the end.
        try insertNote(into: store)
        let mapping = """
            { "format": "strata-mapping/1", "from": 1, "to": 2, "discard": ["Note.keywords"] }
            """
        try Data(mapping.utf8).write(to: URL(fileURLWithPath: "\(schemas)/1-2.mapping.json"))

        let dry = try StrataRunner.run(["migrate", store, "--schemas", schemas, "--dry-run"])
        #expect(dry.status == 0, "\(dry.stdout)\(dry.stderr)")
        #expect(dry.stdout.contains("STAGE 1-2 (copy, mapping "))
        #expect(dry.stdout.contains("mapping   attribute is gone"))

        let run = try StrataRunner.run(["migrate", store, "--schemas", schemas])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.hasPrefix("Migrated from version 1 to 2 (stages 1-2)."))
    }

    @Test func testRealCoreDataStoreUpgradesWithTheConvertedModel() throws {
        let scratch = try ScratchFolder()
        let store = try InfoFixtureCommandTests.copy(
            "ddg-bookmarks/Bookmarks_V1.sqlite", to: scratch)
        let schemas = scratch.path("Schemas")
        let model = InfoFixtureCommandTests.fixtures
            .appendingPathComponent("ddg-bookmarks/BookmarksModel.xcdatamodeld").path
        #expect(
            try StrataRunner.run(["schema", "from-xcdatamodel", model, "-o", schemas]).status == 0)

        let refused = try StrataRunner.run(["migrate", store, "--schemas", schemas, "--dry-run"])
        #expect(refused.status == 1)
        #expect(
            refused.stdout.contains(
                "10 values of BookmarkEntity.isFavorite would be dropped; acknowledge it with "
                    + "\"discard\": [\"BookmarkEntity.isFavorite\"] in 2-3.mapping.json or pass "
                    + "--accept-lossy"))

        let discard = """
            { "format": "strata-mapping/1", "from": 2, "to": 3,
              "discard": ["BookmarkEntity.isFavorite"] }
            """
        try Data(discard.utf8).write(to: URL(fileURLWithPath: "\(schemas)/2-3.mapping.json"))
        let run = try StrataRunner.run(["migrate", store, "--schemas", schemas])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.hasPrefix("Migrated from version 1 to 6 (stages 1-2, 2-3, 3-6)."))
        #expect(run.stdout.contains("  BookmarkEntity  10      10"))

        let info = try StrataRunner.run(["info", store, "--schemas", schemas])
        #expect(info.stdout.contains("Model      BookmarksModel, version 6"))
        #expect(info.stdout.contains("Integrity  ok"))
    }

    @Test func testUnknownTargetFailsAndBadTargetIsBadUsage() throws {
        let (scratch, schemas, store) = try setUp()
        defer { withExtendedLifetime(scratch) {} }  // Keeps the folder until the end.
        let unknown = try StrataRunner.run(["migrate", store, "--schemas", schemas, "--to", "7"])
        #expect(unknown.status == 1)
        #expect(unknown.stderr.contains("Notes has no version 7 (versions: 1, 2)"))

        let bad = try StrataRunner.run(["migrate", store, "--schemas", schemas, "--to", "0"])
        #expect(bad.status == 64)
    }

    @Test func testAJournalNamingAFileOutsideTheFolderIsRefusedAndTheFileKept() throws {
        let (scratch, schemas, store) = try setUp()
        defer { withExtendedLifetime(scratch) {} }  // Keeps the folder until the end.
        let folder = scratch.path("inner")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let moved = "\(folder)/Notes.sqlite"
        try FileManager.default.moveItem(atPath: store, toPath: moved)
        let victim = scratch.path("victim.txt")
        try Data("keep".utf8).write(to: URL(fileURLWithPath: victim))
        let opened = try Store.open(at: URL(fileURLWithPath: moved))
        var metadata = opened.metadata
        metadata.otherKeys["StrataMigrationJournal"] = [
            "backup": .text("../victim.txt"), "target": .integer(2), "start": .integer(1),
            "completed": [],
        ]
        try opened.connection.inTransaction(.immediate) { try opened.writeMetadata(metadata) }
        try opened.close()

        let outcome = try StrataRunner.run(["migrate", moved, "--schemas", schemas])

        #expect(outcome.status == 1)
        #expect(
            outcome.stderr.contains(
                "metadata key StrataMigrationJournal.backup names '../victim.txt', not the "
                    + "backup Strata makes for this store ('Notes.sqlite.strata-backup-v1')"))
        #expect(try bytes(victim) == Data("keep".utf8))
    }

    @Test func testARunWaitsForTheStoresLockOrRefusesWithWaitZero() throws {
        let (scratch, schemas, store) = try setUp()
        defer { withExtendedLifetime(scratch) {} }  // Keeps the folder until the end.
        let before = try bytes(store)
        let lock = try StoreLock(
            for: URL(fileURLWithPath: store), mode: .shared, waitingUpTo: 0)

        let refused = try StrataRunner.run(["migrate", store, "--schemas", schemas, "--wait", "0"])

        #expect(refused.status == 1)
        #expect(refused.stderr.contains("another process is migrating or saving to the store"))
        #expect(refused.stderr.contains("waited 0 s; nothing was changed"))
        #expect(try bytes(store) == before)
        lock.release()
        let bad = try StrataRunner.run(["migrate", store, "--schemas", schemas, "--wait", "-1"])
        #expect(bad.status == 64)
    }
}
