import Foundation
import Testing

/// `strata migrate` says what it did about a backup: none for a run that only
/// adds or whose only lossy stage is its last, the backup's name for one
/// that can lose something before a later stage (issue 25).
struct MigrateBackupCommandTests {
    static let v1 =
        #""title": { "type": "string" }, "keywords": { "type": "string", "optional": true }"#
    static let adding = v1 + #", "summary": { "type": "string", "optional": true }"#
    static let removing = #""title": { "type": "string" }"#

    @Test func testARunThatOnlyAddsSaysNoBackupWasNeeded() throws {
        let scratch = try ScratchFolder()
        let (schemas, store) = try scratch.notesChain([Self.v1, Self.adding])
        let run = try StrataRunner.run(["migrate", store, "--schemas", schemas])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("No backup needed: each stage commits or rolls back whole"))
        #expect(!FileManager.default.fileExists(atPath: store + ".strata-backup-v1"))
    }

    @Test func testALossyLastStageNeedsNoBackup() throws {
        let scratch = try ScratchFolder()
        let (schemas, store) = try scratch.notesChain([Self.v1, Self.removing])
        let run = try StrataRunner.run([
            "migrate", store, "--schemas", schemas, "--accept-lossy", "--json",
        ])
        #expect(run.status == 0, "\(run.stderr)")
        let object = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8))
        let backup = (object as? [String: Any])?["backup"] as? [String: String]
        #expect(backup == ["outcome": "not-needed"])
    }

    @Test func testALossyStageBeforeAnotherNamesItsBackup() throws {
        let scratch = try ScratchFolder()
        // 1-2 removes keywords in place; 2-3 fills summary from a mapping.
        let (schemas, store) = try scratch.notesChain([
            Self.v1, Self.removing, Self.removing + #", "summary": { "type": "string" }"#,
        ])
        try Data(
            #"{ "format": "strata-mapping/1", "from": 2, "to": 3, "entities": { "Note": { "attributes": { "summary": "title" } } } }"#
                .utf8
        ).write(to: URL(fileURLWithPath: schemas + "/2-3.mapping.json"))
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
