import Foundation
import Testing

/// `strata migrate` says what it did about a backup: none for a run that only
/// adds, the backup's name for one that can lose something (issue 25).
@Suite struct MigrateBackupCommandTests {
    /// A Notes chain whose version 2 adds an optional `summary` (`adds`) or
    /// removes `keywords` (lossy), and a v1 store.
    private func setUp(adding: Bool) throws -> (ScratchFolder, schemas: String, store: String) {
        let scratch = try ScratchFolder()
        let v1 = """
            "title": { "type": "string" }, "keywords": { "type": "string", "optional": true }
            """
        let v2 =
            adding
            ? v1 + #", "summary": { "type": "string", "optional": true }"#
            : #""title": { "type": "string" }"#
        let (schemas, store) = try scratch.notesChain([v1, v2])
        return (scratch, schemas, store)
    }

    @Test func testARunThatOnlyAddsSaysNoBackupWasNeeded() throws {
        let (scratch, schemas, store) = try setUp(adding: true)
        defer { withExtendedLifetime(scratch) {} }  // Keeps the folder until the end.
        let run = try StrataRunner.run(["migrate", store, "--schemas", schemas])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("No backup needed: every stage only adds"))
        #expect(!FileManager.default.fileExists(atPath: store + ".strata-backup-v1"))
    }

    @Test func testALossyRunNamesItsBackup() throws {
        let (scratch, schemas, store) = try setUp(adding: false)
        defer { withExtendedLifetime(scratch) {} }  // Keeps the folder until the end.
        let run = try StrataRunner.run([
            "migrate", store, "--schemas", schemas, "--accept-lossy", "--json",
        ])
        #expect(run.status == 0, "\(run.stderr)")
        let object = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8))
        let backup = (object as? [String: Any])?["backup"] as? [String: String]
        #expect(
            backup == [
                "outcome": "made", "name": "Notes.sqlite.strata-backup-v1", "beforeStage": "1-2",
            ])
        #expect(!FileManager.default.fileExists(atPath: store + ".strata-backup-v1"))
    }
}
