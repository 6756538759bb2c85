import Foundation
import Testing

/// Renaming identifiers from Xcode's `elementID` through `schema
/// from-xcdatamodel` and `migrate`: the renamed, widened attribute keeps its
/// values; a pairing Core Data could not infer is refused before writing.
struct RenamingIdentifierCommandTests {
    /// Writes `Chat.xcdatamodeld` with one version per `attributes` body.
    static func model(in folder: ScratchFolder, _ versions: [String]) throws -> String {
        for (index, attributes) in versions.enumerated() {
            let name = index == 0 ? "Chat.xcdatamodel" : "Chat \(index + 1).xcdatamodel"
            let version = folder.url.appendingPathComponent("Chat.xcdatamodeld/\(name)")
            try FileManager.default.createDirectory(at: version, withIntermediateDirectories: true)
            let contents = """
                <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
                <model type="com.apple.IDECoreDataModeler.DataModel">
                    <entity name="Conversation">
                        \(attributes)
                        <attribute name="hasReadReceiptsEnabled" optional="YES" attributeType="Boolean"/>
                    </entity>
                </model>
                """
            try Data(contents.utf8).write(to: version.appendingPathComponent("contents"))
        }
        return folder.path("Chat.xcdatamodeld")
    }

    static func sqlite(_ store: String, _ sql: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        process.arguments = [store, sql]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        return String(decoding: output, as: UTF8.self)
    }

    @Test func testConvertedRenameKeepsItsValuesThroughMigrate() throws {
        let folder = try ScratchFolder()
        let model = try Self.model(
            in: folder,
            [
                #"<attribute name="isSilenced" optional="YES" attributeType="Boolean" elementID="mutedStatus"/>"#,
                #"<attribute name="mutedStatus" optional="YES" attributeType="Integer 32" elementID="mutedStatus"/>"#,
            ])
        let schemas = folder.path("schemas")
        let converted = try StrataRunner.run(["schema", "from-xcdatamodel", model, "-o", schemas])
        #expect(converted.status == 0, "\(converted.stderr)")
        let first = try String(contentsOfFile: "\(schemas)/1.json", encoding: .utf8)
        #expect(first.contains(#""renamingIdentifier": "mutedStatus""#))
        #expect(!first.contains("renamedFrom"))

        let store = folder.path("Chat.sqlite")
        #expect(
            try StrataRunner.run(["create", store, "--schemas", "\(schemas)/1.json"]).status == 0)
        _ = try Self.sqlite(
            store,
            "INSERT INTO ZCONVERSATION (Z_PK, Z_ENT, Z_OPT, ZISSILENCED, ZHASREADRECEIPTSENABLED) "
                + "VALUES (1, 1, 1, 1, 0), (2, 1, 1, 0, 1); UPDATE Z_PRIMARYKEY SET Z_MAX = 2;")
        let dryRun = try StrataRunner.run(["migrate", store, "--schemas", schemas, "--dry-run"])
        #expect(dryRun.status == 0, "\(dryRun.stderr)")
        #expect(
            dryRun.stdout.contains(#"renamed from isSilenced (renaming identifier "mutedStatus")"#))
        #expect(!dryRun.stdout.contains("did you mean"))
        let run = try StrataRunner.run(["migrate", store, "--schemas", schemas])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(
            try Self.sqlite(store, "SELECT ZMUTEDSTATUS FROM ZCONVERSATION ORDER BY Z_PK")
                == "1\n0\n")
    }

    @Test func testPairingToATypeThatCannotWidenWritesNothing() throws {
        let folder = try ScratchFolder()
        let model = try Self.model(
            in: folder,
            [
                #"<attribute name="lastRead" optional="YES" attributeType="Date"/>"#,
                #"<attribute name="readCount" optional="YES" attributeType="Integer 16" elementID="lastRead"/>"#,
            ])
        let schemas = folder.path("schemas")
        let outcome = try StrataRunner.run(["schema", "from-xcdatamodel", model, "-o", schemas])
        #expect(outcome.status == 1)
        #expect(
            outcome.stderr.contains(
                "Chat 2.xcdatamodel/contents:4: <attribute name=\"readCount\">: renaming "
                    + "identifier 'lastRead' pairs this integer16 attribute with "
                    + "Conversation.lastRead of version 1, a date, which does not widen to "
                    + "integer16"), "\(outcome.stderr)")
        #expect(!FileManager.default.fileExists(atPath: schemas))
    }
}
