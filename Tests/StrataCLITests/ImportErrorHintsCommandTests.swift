import Foundation
import Testing

/// Issue 28, points 2 and 8: errors that name the fix — a single-quoted
/// header, a CSV in a `.txt` file, an output that exists, and entity
/// guessing that reports the best fit and its unmatched fields at once.
struct ImportErrorHintsCommandTests {
    private let folder: ScratchFolder
    private let schemas: String

    init() throws {
        folder = try ScratchFolder()
        schemas = try folder.schemaFolder(
            "Penguins",
            version1: """
                { "format": "strata-schema/1", "model": "Penguins", "version": 1,
                  "entities": {
                    "Penguin": { "attributes": {
                        "name": { "type": "string" },
                        "culmenLength": { "type": "double", "optional": true },
                        "flipperLength": { "type": "integer16", "optional": true },
                        "sex": { "type": "string", "optional": true } } },
                    "Island": { "attributes": {
                        "name": { "type": "string" }, "area": { "type": "double" } } },
                    "Study": { "attributes": {
                        "title": { "type": "string" }, "year": { "type": "integer16" } } } } }
                """)
    }

    private func write(_ name: String, _ text: String) throws -> String {
        let path = folder.path(name)
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func testEntityGuessingReportsTheBestFitAndItsUnmatchedFields() throws {
        let input = try write(
            "penguins.csv",
            "name,Culmen Length (mm),Flipper Length (mm),sex\np1,39.1,181,MALE\n")
        let refused = try StrataRunner.run([
            "import", folder.path("p.sqlite"), input, "--schemas", schemas,
        ])
        #expect(refused.status == 1)
        #expect(
            refused.stderr.contains(
                "penguins.csv:1:1: no entity has every field; the best fit is Penguin (2 of 4 "
                    + "fields), where 'Culmen Length (mm)', 'Flipper Length (mm)' match no property "
                    + "(properties: culmenLength, flipperLength, name, sex); give --entity Penguin "
                    + "with --map FIELD=property or --ignore-unknown"), "\(refused.stderr)")
    }

    @Test func testSingleQuotedHeaderNamesTheQuoteOption() throws {
        let input = try write(
            "anes.csv", "'name'\t'sex'\t'culmenLength'\n'p1'\t'MALE'\t'39.1'\n")
        let arguments = [
            "import", folder.path("p.sqlite"), input, "--schemas", schemas, "--entity", "Penguin",
        ]
        let refused = try StrataRunner.run(arguments)
        #expect(refused.status == 1)
        #expect(
            refused.stderr.contains(
                "the header's names are in single quotes: give --quote \"'\""), "\(refused.stderr)")
        let imported = try StrataRunner.run(arguments + ["--quote", "'"])
        #expect(imported.status == 0, "\(imported.stderr)")
        let query = try StrataRunner.run([
            "query", folder.path("p.sqlite"), "Penguin", "--format", "csv", "--fields", "name,sex",
        ])
        #expect(query.stdout.contains("p1,MALE"), "\(query.stdout)")
    }

    @Test func testACSVInATxtFileSaysGiveFormatCSV() throws {
        let input = try write("modechoice.txt", "name;sex;flipperLength\np1;MALE;181\n")
        let arguments = [
            "import", folder.path("p.sqlite"), input, "--schemas", schemas, "--entity", "Penguin",
        ]
        let refused = try StrataRunner.run(arguments)
        #expect(refused.status == 1)
        #expect(
            refused.stderr.contains(
                "modechoice.txt:1:1: the input has no header row; name its fields in order "
                    + "(--columns a,b,c); its first line looks like a header (name;sex;flipperLength): "
                    + "give --format csv --delimiter ';'"), "\(refused.stderr)")
        let imported = try StrataRunner.run(arguments + ["--format", "csv", "--delimiter", ";"])
        #expect(imported.status == 0, "\(imported.stderr)")
    }

    @Test func testALineOfDataIsNotTakenForAHeader() throws {
        let input = try write("contacts.txt", "Ada;Lovelace;181\n")
        let refused = try StrataRunner.run([
            "import", folder.path("p.sqlite"), input, "--schemas", schemas, "--entity", "Penguin",
        ])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("name its fields in order (--columns a,b,c)\n"))
        #expect(!refused.stderr.contains("looks like a header"))
    }

    @Test func testAnOutputThatExistsNamesForce() throws {
        let input = try write("penguins.csv", "name,sex\np1,MALE\n")
        let store = folder.path("p.sqlite")
        let imported = try StrataRunner.run([
            "import", store, input, "--schemas", schemas, "--entity", "Penguin",
        ])
        #expect(imported.status == 0, "\(imported.stderr)")
        let existing = try write("taken.csv", "keep me\n")
        for arguments in [
            ["export", store, "--entity", "Penguin", "-o", existing],
            ["archive", store, "-o", existing],
        ] {
            let refused = try StrataRunner.run(arguments)
            #expect(refused.status == 1)
            #expect(
                refused.stderr.contains(
                    "a file already exists here; not replacing it; give --force to replace it"),
                "\(refused.stderr)")
            #expect(!refused.stderr.contains("warning"), "\(refused.stderr)")
            #expect(try String(contentsOfFile: existing, encoding: .utf8) == "keep me\n")
        }
    }
}
