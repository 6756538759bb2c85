import Foundation
import Testing

/// `strata schema diff` on schema files the tests write to a temporary folder.
struct SchemaDiffCommandTests {
    static let version1 = """
        { "format": "strata-schema/1", "model": "Notes", "version": 1,
          "entities": { "Note": { "attributes": {
            "title": { "type": "string" },
            "stars": { "type": "integer16", "optional": true } } } } }
        """
    static let version2 = """
        { "format": "strata-schema/1", "model": "Notes", "version": 2,
          "entities": { "Note": { "attributes": {
            "heading": { "type": "string", "renamedFrom": "title" },
            "stars": { "type": "integer16", "optional": true },
            "body": { "type": "string", "optional": true } } } } }
        """
    static let version3 = """
        { "format": "strata-schema/1", "model": "Notes", "version": 3,
          "entities": { "Note": { "attributes": {
            "name": { "type": "string", "renamedFrom": "heading" },
            "stars": { "type": "integer16", "optional": true },
            "body": { "type": "string", "optional": true } } } } }
        """

    /// A folder with versions 1–3 of the Notes model.
    private func chain() throws -> ScratchFolder {
        let folder = try ScratchFolder()
        for (index, text) in [Self.version1, Self.version2, Self.version3].enumerated() {
            try Data(text.utf8).write(to: URL(fileURLWithPath: folder.path("\(index + 1).json")))
        }
        return folder
    }

    @Test func testAddOptionalAttributePrintsStepAndAddColumn() throws {
        let folder = try chain()
        // Versions 2 and 3 differ only by a rename; 2 → 2 with a new column:
        let newer = Self.version2.replacingOccurrences(of: "\"version\": 2", with: "\"version\": 3")
            .replacingOccurrences(
                of: "\"body\"",
                with: "\"mood\": { \"type\": \"string\", \"optional\": true }, \"body\"")
        try Data(newer.utf8).write(to: URL(fileURLWithPath: folder.path("other.json")))
        let outcome = try StrataRunner.run(
            ["schema", "diff", folder.path("2.json"), folder.path("other.json")])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stderr == "")
        #expect(
            outcome.stdout == """
                Notes version 2 to 3: 1 step (1 inferred)

                STEPS
                  1  inferred  add-attribute  Note.mood  new optional attribute; \
                nil in existing objects

                TABLES
                  ZNOTE  alter  steps 1

                SQL
                ALTER TABLE ZNOTE ADD COLUMN ZMOOD VARCHAR;

                """)
    }

    @Test func testChainFollowsRenamesFromOneToThree() throws {
        let folder = try chain()
        let outcome = try StrataRunner.run(
            ["schema", "diff", folder.url.path, "--from", "1", "--to", "3"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stdout.hasPrefix("Notes version 1 to 3: 2 steps (2 inferred)\n"))
        #expect(
            outcome.stdout.contains(
                "  2  inferred  rename-attribute  Note.name (was Note.title)  renamed from title "
                    + "(renamedFrom)\n"))
        #expect(outcome.stdout.contains("  ZNOTE  rebuild  steps 1, 2 (fused: one rebuild)\n"))
        #expect(
            outcome.stdout.contains(
                "SELECT ZNOTE.Z_PK, ZNOTE.Z_ENT, ZNOTE.Z_OPT, ZNOTE.ZSTARS, ZNOTE.ZTITLE "
                    + "FROM ZNOTE;\n"
            ))
    }

    @Test func testLossyPlanStillExitsZero() throws {
        let folder = try chain()
        let outcome = try StrataRunner.run(
            ["schema", "diff", folder.path("3.json"), folder.path("1.json")])
        #expect(outcome.status == 0)
        #expect(outcome.stdout.contains("  1  lossy          remove-attribute  Note.body "))
        // Two strings removed, one added, names unlike: no evidence for
        // either pairing, so no rename hint (issue 16).
        #expect(
            outcome.stdout.contains(
                "Note.title  new required attribute without a default: existing objects need "
                    + "values from a mapping\n"
            ))
        #expect(!outcome.stdout.contains("did you mean"))
    }

    @Test func testJSONListsStepsTablesAndStatements() throws {
        let folder = try chain()
        let outcome = try StrataRunner.run(
            ["schema", "diff", folder.url.path, "--from", "1", "--json"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let object =
            try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any]
        #expect(object?["from"] as? Int == 1)
        #expect(object?["to"] as? Int == 3)
        #expect(object?["label"] as? String == "inferred")
        let steps = object?["steps"] as? [[String: Any]]
        #expect(steps?.map { $0["kind"] as? String } == ["add-attribute", "rename-attribute"])
        #expect(steps?.last?["formerProperty"] as? String == "title")
        let tables = object?["tables"] as? [[String: Any]]
        #expect(tables?.first?["fused"] as? Bool == true)
        #expect((object?["statements"] as? [Any])?.count == 4)
    }

    @Test func testIdenticalVersionsPrintNoChanges() throws {
        let folder = try chain()
        let outcome = try StrataRunner.run(
            ["schema", "diff", folder.path("1.json"), folder.path("1.json")])
        #expect(outcome.status == 0)
        #expect(outcome.stdout == "Notes version 1 to 1: no changes\n")
    }

    @Test func testBadInputsFail() throws {
        let folder = try chain()
        let downgrade = try StrataRunner.run(
            ["schema", "diff", folder.url.path, "--from", "3", "--to", "1"])
        #expect(downgrade.status == 1)
        #expect(
            downgrade.stderr
                == "error: migration error: cannot plan from version 3 down to 1; Strata only "
                + "upgrades\n")
        let unknown = try StrataRunner.run(["schema", "diff", folder.url.path, "--from", "7"])
        #expect(unknown.status == 1)
        #expect(unknown.stderr.contains("no version 7 (versions: 1, 2, 3)"))
        let missing = try StrataRunner.run([
            "schema", "diff", folder.path("nope.json"), folder.path("1.json"),
        ])
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("nope.json: no such file or folder"))
    }

    @Test func testUsageErrorsExit64() throws {
        let folder = try chain()
        let both = try StrataRunner.run(
            ["schema", "diff", folder.path("1.json"), folder.path("2.json"), "--from", "1"])
        #expect(both.status == 64)
        #expect(both.stderr.hasPrefix("error: give two schemas, or one folder"))
        let one = try StrataRunner.run(["schema", "diff", folder.path("1.json")])
        #expect(one.status == 64)
        let help = try StrataRunner.run(["schema", "diff", "--help"])
        #expect(help.status == 0)
        #expect(help.stdout.hasPrefix("USAGE: strata schema diff <from> <to> [--json]\n"))
    }

    @Test func testToManyWithoutInverseGainingOneMovesItsLinks() throws {
        let folder = try ScratchFolder()
        let version2 = """
            { "format": "strata-schema/1", "model": "Messenger", "version": 2, "entities": {
              "Message": { "relationships": {
                "readers": { "destination": "User", "toMany": true, "optional": true } } },
              "Reaction": { "relationships": {
                "users": { "destination": "User", "toMany": true, "optional": true } } },
              "User": { "attributes": { "name": { "type": "string", "optional": true } } } } }
            """
        let version3 = """
            { "format": "strata-schema/1", "model": "Messenger", "version": 3, "entities": {
              "Message": { "attributes": { "text": { "type": "string", "optional": true } } },
              "Reaction": { "relationships": { "users": {
                "destination": "User", "inverse": "reactions", "toMany": true, "optional": true } } },
              "User": { "attributes": { "name": { "type": "string", "optional": true } },
                "relationships": { "reactions": {
                  "destination": "Reaction", "inverse": "users", "toMany": true, "optional": true } } } } }
            """
        try Data(version2.utf8).write(to: URL(fileURLWithPath: folder.path("2.json")))
        try Data(version3.utf8).write(to: URL(fileURLWithPath: folder.path("3.json")))
        let outcome = try StrataRunner.run(
            ["schema", "diff", folder.path("2.json"), folder.path("3.json")])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stderr == "")
        #expect(
            outcome.stdout.contains(
                "  1  lossy     remove-relationship  Message.readers  relationship is gone; its "
                    + "links are dropped\n"))
        #expect(
            outcome.stdout.contains(
                "  3  inferred  change-version-hash  Reaction.users   gains the inverse "
                    + "reactions; links move to the join table Z_2USERS\n"))
        #expect(
            outcome.stdout.contains(
                "INSERT INTO \"strata_new_Z_2USERS\" (Z_2REACTIONS, Z_3USERS) SELECT "
                    + "Z_2USERS.Z_2REACTION, Z_2USERS.Z_3USERS FROM Z_2USERS;\n"))
        #expect(outcome.stdout.contains("  Z_1READERS  drop     steps 1\n"))
    }
}
