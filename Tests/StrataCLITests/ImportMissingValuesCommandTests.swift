import Foundation
import Testing

/// Issue 28, point 1: missing-value tokens. R, pandas and spreadsheets write
/// `NA`, `NULL` or `N/A` for "no value"; `--null` (and a mapping file's
/// `nulls` and `fieldNulls`) read them as no value, and a strict import
/// that meets one says so.
struct ImportMissingValuesCommandTests {
    private let folder: ScratchFolder
    private let schemas: String

    init() throws {
        folder = try ScratchFolder()
        schemas = try folder.schemaFolder(
            "Penguins",
            version1: """
                { "format": "strata-schema/1", "model": "Penguins", "version": 1,
                  "entities": {
                    "Penguin": {
                      "attributes": {
                        "name": { "type": "string" },
                        "bill": { "type": "double", "optional": true },
                        "flipper": { "type": "integer16", "optional": true },
                        "sex": { "type": "string", "optional": true },
                        "seen": { "type": "date", "optional": true },
                        "adult": { "type": "boolean", "optional": true } },
                      "relationships": {
                        "species": { "destination": "Species", "inverse": "penguins",
                                     "optional": true, "relatedBy": "name" } } },
                    "Species": {
                      "attributes": { "name": { "type": "string" } },
                      "relationships": {
                        "penguins": { "destination": "Penguin", "inverse": "species",
                                      "toMany": true, "optional": true } } } } }
                """)
        // An R-style export: NA in every column of the second penguin.
        let csv = """
            name,bill,flipper,sex,seen,adult,species
            p1,39.1,181,MALE,2007-11-11,yes,Adelie
            p2,NA,NA,NA,NA,NA,NA
            p3,NULL,190,FEMALE,NULL,no,Gentoo

            """
        try Data(csv.utf8).write(to: URL(fileURLWithPath: folder.path("penguins.csv")))
    }

    private func importPenguins(_ extra: [String]) throws -> StrataRunner.Outcome {
        try StrataRunner.run(
            [
                "import", folder.path("p.sqlite"), folder.path("penguins.csv"), "--schemas",
                schemas, "--entity", "Penguin",
            ] + extra)
    }

    private func penguins() throws -> [String] {
        let query = try StrataRunner.run([
            "query", folder.path("p.sqlite"), "Penguin", "--format", "csv", "--fields",
            "name,bill,flipper,sex,seen,adult,species.name", "--sort", "name",
        ])
        #expect(query.status == 0, "\(query.stderr)")
        return query.stdout.split(whereSeparator: \.isNewline).map(String.init)
    }

    @Test func testAStrictImportMeetingNASaysGiveNull() throws {
        let refused = try importPenguins([])
        #expect(refused.status == 1)
        #expect(
            refused.stderr.contains(
                "penguins.csv:3:4: 'NA' is not a number (bill is double); if 'NA' means no value "
                    + "here, give --null NA"), "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.path("p.sqlite")))
    }

    @Test func testNullTokensAreNoValueForEveryTypeAndTextKeepsThem() throws {
        let imported = try importPenguins(["--null", "NA,NULL"])
        #expect(imported.status == 0, "\(imported.stderr)")
        let rows = try penguins()
        #expect(rows.count == 4, "\(rows)")
        #expect(rows[1] == "Penguin/p1,p1,39.1,181,MALE,2007-11-11T00:00:00Z,true,Adelie")
        // Numbers, dates, booleans and the link are no value; text keeps "NA".
        #expect(rows[2] == "Penguin/p2,p2,,,NA,,,", "\(rows[2])")
        #expect(rows[3] == "Penguin/p3,p3,,190,FEMALE,,false,Gentoo", "\(rows[3])")
        let species = try StrataRunner.run([
            "query", folder.path("p.sqlite"), "Species", "--count",
        ])
        #expect(species.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "2")
    }

    @Test func testNullIsRepeatableAndOnlyTheGivenTokensCount() throws {
        let refused = try importPenguins(["--null", "NA"])
        #expect(refused.status == 1)
        #expect(
            refused.stderr.contains("penguins.csv:4:4: 'NULL' is not a number"), "\(refused.stderr)"
        )
        #expect(refused.stderr.contains("give --null NULL"))
        let imported = try importPenguins(["--null", "NA", "--null", "NULL"])
        #expect(imported.status == 0, "\(imported.stderr)")
    }

    @Test func testAMappingFilesNullsAndFieldNullsLetTextOptIn() throws {
        let mapping = folder.path("penguins.mapping.json")
        try Data(
            """
            { "format": "strata-import/1", "entity": "Penguin",
              "nulls": ["NA", "NULL"], "fieldNulls": { "sex": ["NA"] } }
            """.utf8
        ).write(to: URL(fileURLWithPath: mapping))
        let imported = try importPenguins(["--mapping", mapping])
        #expect(imported.status == 0, "\(imported.stderr)")
        let rows = try penguins()
        #expect(rows[2] == "Penguin/p2,p2,,,,,,", "\(rows[2])")
    }

    @Test func testFieldNullsNamingNoPropertyIsRefused() throws {
        let mapping = folder.path("bad.mapping.json")
        try Data(
            """
            { "format": "strata-import/1", "fieldNulls": { "colour": ["NA"] } }
            """.utf8
        ).write(to: URL(fileURLWithPath: mapping))
        let refused = try importPenguins(["--mapping", mapping, "--null", "NA,NULL"])
        #expect(refused.status == 1)
        #expect(
            refused.stderr.contains(
                "missing-value tokens are given for 'colour', which is no property of the model"),
            "\(refused.stderr)")
    }
}
