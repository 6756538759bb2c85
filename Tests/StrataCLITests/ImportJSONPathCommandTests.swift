import Foundation
import Testing

/// Issue 28, point 3: `strata import --path` on a CycloneDX-shaped SBOM.
struct ImportJSONPathCommandTests {
    private let folder: ScratchFolder
    private let schemas: String
    private let bom: String

    init() throws {
        folder = try ScratchFolder()
        schemas = try folder.schemaFolder(
            "SBOM",
            version1: """
                { "format": "strata-schema/1", "model": "SBOM", "version": 1,
                  "entities": {
                    "Component": { "attributes": {
                        "name": { "type": "string" }, "version": { "type": "string", "optional": true },
                        "type": { "type": "string", "optional": true } } },
                    "Dependency": { "attributes": { "ref": { "type": "string" } } },
                    "Tool": { "attributes": {
                        "name": { "type": "string" }, "vendor": { "type": "string", "optional": true } } } } }
                """)
        bom = folder.path("bom.json")
        try Data(JSONRecordReaderPathSample.bom.utf8).write(to: URL(fileURLWithPath: bom))
    }

    private func count(_ store: String, _ entity: String) throws -> String {
        try StrataRunner.run(["query", store, entity, "--count"]).stdout
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test func testWithoutAPathTheDocumentAsksForOne() throws {
        let refused = try StrataRunner.run([
            "import", folder.path("a.sqlite"), bom, "--schemas", schemas,
        ])
        #expect(refused.status == 1)
        #expect(
            refused.stderr.contains(
                "choose the arrays to read with --path components"), "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.path("a.sqlite")))
    }

    @Test func testPathReadsOneArrayAndGuessesItsEntity() throws {
        let store = folder.path("b.sqlite")
        let imported = try StrataRunner.run([
            "import", store, bom, "--schemas", schemas, "--path", "components",
        ])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stdout.contains("Imported 2 Component records"), "\(imported.stdout)")
        #expect(try count(store, "Component") == "2")
    }

    @Test func testSeveralPathsEachWithItsEntity() throws {
        let store = folder.path("c.sqlite")
        let imported = try StrataRunner.run([
            "import", store, bom, "--schemas", schemas, "--path", "components=Component",
            "--path", "dependencies=Dependency", "--path", "metadata.tools",
        ])
        #expect(imported.status == 0, "\(imported.stderr)")
        // The records' entities in the order the document gives them.
        #expect(
            imported.stdout.contains(
                "Imported 4 records (Tool, Component, Dependency) into \(store): 4 inserted "
                    + "(1 Tool, 2 Component, 1 Dependency), 0 updated"), "\(imported.stdout)")
        #expect(try count(store, "Component") == "2")
        #expect(try count(store, "Dependency") == "1")
        #expect(try count(store, "Tool") == "1")
    }

    @Test func testPathNeedsAJSONInputAndAPathOfKeys() throws {
        let csv = folder.path("x.csv")
        try Data("name\nzlib\n".utf8).write(to: URL(fileURLWithPath: csv))
        let notJSON = try StrataRunner.run([
            "import", folder.path("d.sqlite"), csv, "--schemas", schemas, "--path", "a",
        ])
        #expect(notJSON.status == 1)
        #expect(
            notJSON.stderr.contains(
                "--path reads arrays inside a JSON document, and the input is csv"))
        let empty = try StrataRunner.run([
            "import", folder.path("d.sqlite"), bom, "--schemas", schemas, "--path", "a..b",
        ])
        #expect(empty.status == 64)
        #expect(empty.stderr.contains("'--path' expects a dotted path of keys"))
    }
}

/// The SBOM of ``JSONRecordReaderPathTests``, for the command's tests.
enum JSONRecordReaderPathSample {
    static let bom = """
        {
          "bomFormat": "CycloneDX",
          "specVersion": "1.5",
          "version": 1,
          "metadata": {"timestamp": "2024-01-01T00:00:00Z",
                       "tools": [{"vendor": "acme", "name": "scan"}]},
          "components": [
            {"type": "library", "name": "zlib", "version": "1.3"},
            {"type": "library", "name": "sqlite", "version": "3.45"}
          ],
          "dependencies": [{"ref": "zlib"}]
        }
        """
}
