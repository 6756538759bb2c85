import Foundation
import Testing

/// `strata migrate --as-core-data` (issue 16): what Core Data's lightweight
/// migration would make of the store, every acceptance listed with its count.
struct MigrateAsCoreDataCommandTests {
    /// v2 drops `keywords` and adds the required `summary` without a
    /// default; the v1 store holds one note with keywords.
    private func setUp() throws -> (ScratchFolder, schemas: String, store: String) {
        let scratch = try ScratchFolder()
        let v1 = #""title": {"type": "string"}, "keywords": {"type": "string", "optional": true}"#
        let v2 = #""title": {"type": "string"}, "summary": {"type": "string"}"#
        let (schemas, store) = try scratch.notesChain([v1, v2])
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        process.arguments = [
            store,
            "INSERT INTO ZNOTE (Z_PK, Z_ENT, Z_OPT, ZTITLE, ZKEYWORDS) "
                + "VALUES (1, 1, 1, 'Hello', 'greeting'); UPDATE Z_PRIMARYKEY SET Z_MAX = 1;",
        ]
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        return (scratch, schemas, store)
    }

    @Test func testAsCoreDataMigratesAndListsEachAcceptance() throws {
        let (scratch, schemas, store) = try setUp()
        defer { withExtendedLifetime(scratch) {} }  // Keeps the folder until the end.
        let strict = try StrataRunner.run(["migrate", store, "--schemas", schemas])
        #expect(strict.status == 1)

        let outcome = try StrataRunner.run([
            "migrate", store, "--schemas", schemas, "--as-core-data", "--no-backup",
        ])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stdout.hasPrefix("Migrated from version 1 to 2 (stages 1-2).\n"))
        #expect(
            outcome.stdout.contains(
                """
                Accepted, as asked (2):
                  [1-2] 1 values of Note.keywords would be dropped (accepted: --as-core-data; Core Data drops them too)
                  [1-2] 1 rows of Note need a value for summary; version 2 requires it and gives no default (accepted: --as-core-data; left empty, as Core Data leaves them)
                """), "\(outcome.stdout)")
        let info = try StrataRunner.run(["info", store, "--schemas", schemas])
        #expect(info.stdout.contains("version 2"), "\(info.stdout)")
    }
}
