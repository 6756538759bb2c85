import Foundation
import Testing

@testable import Strata
@testable import StrataContext
@testable import StrataFormats
@testable import StrataSchema

/// The importer on flat records (CSV, txt lines): mapping by header,
/// conversion by type, the schema's rules, and the error policies.
struct ImporterFieldTests {
    static let header = ["first", "last", "nick", "email", "birthday", "score", "notes"]

    @Test func testContactsAreInsertedTypedWithKeysAndBookkeeping() throws {
        let fixture = try ImportFixture("Contacts", version: 2)
        let reader = ArrayFieldReader(
            header: Self.header,
            rows: [
                [
                    "Anna", "Rossi", "ann0", "ann0@example.org", "1985-03-02", "12.500",
                    "said \"hi\"",
                ],
                ["Luca", "Bianchi", nil, nil, nil, nil, nil],
            ])
        let summary = try fixture.run(reader, ImportOptions(entity: "Contact"))
        #expect(summary.inserted == 2)
        #expect(summary.records == 2)
        let rows = try fixture.rows(
            "SELECT Z_PK, Z_ENT, Z_OPT, ZFIRSTNAME, ZNICKNAME, ZBIRTHDAY, ZSCORE, ZNOTES FROM ZCONTACT ORDER BY Z_PK"
        )
        #expect(
            rows == [
                ["1", "1", "1", "Anna", "ann0", "-499737600", "12.5", "said \"hi\""],
                ["2", "1", "1", "Luca", "NULL", "NULL", "NULL", "NULL"],
            ])
        #expect(try fixture.count("SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = 'Contact'") == 2)
        // A context reads what the importer wrote.
        let context = try Context(store: fixture.store, model: fixture.model)
        let anna = try #require(try context.fetch(FetchRequest(entity: "Contact")).first)
        #expect(try anna.string("email") == "ann0@example.org")
    }

    @Test func testEntityIsGuessedFromTheOnlyEntityAndFieldsFoldNames() throws {
        let fixture = try ImportFixture("Contacts", version: 2)
        let reader = ArrayFieldReader(
            header: ["First Name", "last_name", "E-mail"], rows: [["Zoë", "Ødegaard", "z@x.org"]])
        let summary = try fixture.run(reader, ImportOptions())
        #expect(summary.entity == "Contact")
        #expect(
            try fixture.rows("SELECT ZFIRSTNAME, ZLASTNAME, ZEMAIL FROM ZCONTACT") == [
                ["Zoë", "Ødegaard", "z@x.org"]
            ])
    }

    @Test func testUnknownFieldStopsBeforeAnythingIsWritten() throws {
        let fixture = try ImportFixture("Contacts", version: 2)
        let reader = ArrayFieldReader(
            header: ["first", "last", "shoe size"], rows: [["A", "B", "42"]])
        let error = try #require(throws: ImportError.self) {
            try fixture.run(reader, ImportOptions(entity: "Contact"))
        }
        #expect(error.code == .unknownField)
        #expect(error.message.hasPrefix("'shoe size' matches no property of Contact"))
        #expect(try fixture.count("SELECT COUNT(*) FROM ZCONTACT") == 0)
    }

    @Test func testMapAndIgnoreUnknown() throws {
        let fixture = try ImportFixture("Contacts", version: 2)
        var options = ImportOptions(entity: "Contact")
        options.fieldMap["Vorname"] = "firstName"
        options.fieldMap["Nachname"] = "lastName"
        options.ignoresUnknownFields = true
        let reader = ArrayFieldReader(
            header: ["Vorname", "Nachname", "Schuhgröße"], rows: [["Jürgen", "Müller", "44"]])
        _ = try fixture.run(reader, options)
        #expect(
            try fixture.rows("SELECT ZFIRSTNAME, ZLASTNAME FROM ZCONTACT") == [
                ["Jürgen", "Müller"]
            ])
    }

    @Test func testBadValueAbortsWithItsPlaceAndLeavesTheStoreUnchanged() throws {
        let fixture = try ImportFixture("Contacts", version: 2)
        let reader = ArrayFieldReader(
            header: Self.header,
            rows: [
                ["Anna", "Rossi", nil, nil, "1985-03-02", "1", nil],
                ["Luca", "Bianchi", nil, nil, "yesterday", "2", nil],
            ])
        let error = try #require(throws: ImportError.self) {
            try fixture.run(reader, ImportOptions(entity: "Contact"))
        }
        #expect(error.code == .invalidValue)
        #expect(error.position.line == 3)
        // The fifth field, in ArrayFieldReader's made-up columns.
        #expect(error.position.column == 41)
        #expect(error.message.contains("'yesterday' is not an ISO 8601 date"))
        #expect(try fixture.count("SELECT COUNT(*) FROM ZCONTACT") == 0)
        #expect(try fixture.count("SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = 'Contact'") == 0)
    }

    @Test(arguments: [
        ("score", "101", "score 101.0 is above the maximum 100.0"),
        ("score", "1e999", "is not a finite number"),
        ("first", "", "firstName is required"),
        (
            "email", String(repeating: "e", count: 255),
            "email has 255 characters, at most 254 allowed"
        ),
    ])
    func testSchemaRulesAreChecked(field: String, value: String, message: String) throws {
        let fixture = try ImportFixture("Contacts", version: 2)
        var row: [String?] = ["Anna", "Rossi", nil, nil, nil, nil, nil]
        let column = try #require(Self.header.firstIndex(of: field))
        row[column] = value.isEmpty ? nil : value
        let reader = ArrayFieldReader(header: Self.header, rows: [row])
        let error = try #require(throws: ImportError.self) {
            try fixture.run(reader, ImportOptions(entity: "Contact"))
        }
        #expect(error.message.contains(message), "\(error.message)")
        #expect(error.position.column == column * 10 + 1)
    }

    @Test func testAPatternMismatchShowsTheValueAndThePattern() throws {
        let schema = """
            {"format": "strata-schema/1", "model": "Codes", "version": 1, "entities": {"Row": {
              "attributes": {"code": {"type": "string", "pattern": "^[A-Z]{3}$"}}}}}
            """
        let fixture = try ImportFixture(
            model: try SchemaDecoder().decode(Data(schema.utf8), file: "Codes.json"))
        let reader = ArrayFieldReader(header: ["code"], rows: [["ABC"], ["abcd"]])
        let error = try #require(throws: ImportError.self) {
            try fixture.run(reader, ImportOptions())
        }
        #expect(error.message.contains("code 'abcd' does not match ^[A-Z]{3}$"), "\(error.message)")
        #expect(error.position.line == 3)
    }

    @Test func testIntegersAreExactToSixtyFourBitsAndBooleansSpelledSixWays() throws {
        let schema = """
            {"format": "strata-schema/1", "model": "Numbers", "version": 1, "entities": {"Row": {"attributes": {
              "big": {"type": "integer64", "optional": true}, "small": {"type": "integer16", "optional": true},
              "flag": {"type": "boolean", "optional": true}}}}}
            """
        let fixture = try ImportFixture(
            model: try SchemaDecoder().decode(Data(schema.utf8), file: "Numbers.json"))
        let reader = ArrayFieldReader(
            header: ["big", "small", "flag"],
            rows: [
                ["9223372036854775807", "-32768", "YES"], ["-9223372036854775808", "32767", "no"],
                [nil, nil, "True"], [nil, nil, "0"],
            ])
        _ = try fixture.run(reader, ImportOptions())
        #expect(
            try fixture.rows("SELECT ZBIG, ZSMALL, ZFLAG FROM ZROW ORDER BY Z_PK") == [
                ["9223372036854775807", "-32768", "1"], ["-9223372036854775808", "32767", "0"],
                ["NULL", "NULL", "1"], ["NULL", "NULL", "0"],
            ])
        for (big, small, flag, message) in [
            ("9223372036854775808", "", "", "out of range for integer64"),
            ("", "32768", "", "out of range for integer16"), ("1.5", "", "", "is not an integer"),
            ("", "", "maybe", "is not a boolean"),
        ] {
            let bad = ArrayFieldReader(
                header: ["big", "small", "flag"],
                rows: [
                    [
                        big.isEmpty ? nil : big, small.isEmpty ? nil : small,
                        flag.isEmpty ? nil : flag,
                    ]
                ])
            let error = try #require(throws: ImportError.self) {
                try fixture.run(bad, ImportOptions())
            }
            #expect(error.message.contains(message), "\(error.message)")
        }
    }

    @Test func testSkipPolicyRejectsBadRecordsAndCommitsTheRest() throws {
        let fixture = try ImportFixture("Contacts", version: 2)
        let reader = ArrayFieldReader(
            header: Self.header,
            rows: [
                ["Anna", "Rossi", nil, nil, nil, "1", nil],
                ["Luca", "Bianchi", nil, nil, nil, "x", nil],
                ["Olga", "Petrov", nil, nil, nil, "3", nil],
                ["Ragged", "Row", nil, nil, nil, nil, nil],
            ])
        reader.failures[3] = ImportError(
            .structure, at: SourcePosition(file: "input.csv", line: 5, byteOffset: 99),
            "7 fields expected, found 2")
        var options = ImportOptions(entity: "Contact")
        options.errorPolicy = .skip
        options.commitInterval = 2
        let importer = try Importer(store: fixture.store, model: fixture.model, options: options)
        let rejects = RejectCollector()
        importer.rejects = rejects
        let summary = try importer.run(reader)
        #expect(summary.inserted == 2)
        #expect(summary.rejected == 2)
        #expect(rejects.rejected.map(\.error.position.line) == [3, 5])
        #expect(rejects.rejected.first?.originalText == Data("Luca,Bianchi,,,,x,".utf8))
        #expect(
            try fixture.rows("SELECT ZFIRSTNAME FROM ZCONTACT ORDER BY Z_PK") == [
                ["Anna"], ["Olga"],
            ])
    }

    @Test func testDryRunWritesNothing() throws {
        let fixture = try ImportFixture("Contacts", version: 2)
        var options = ImportOptions(entity: "Contact")
        options.isDryRun = true
        let summary = try fixture.run(
            ArrayFieldReader(
                header: Self.header, rows: [["Anna", "Rossi", nil, nil, nil, nil, nil]]), options)
        #expect(summary.inserted == 1)
        #expect(summary.isDryRun)
        #expect(try fixture.count("SELECT COUNT(*) FROM ZCONTACT") == 0)
        #expect(try fixture.count("SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = 'Contact'") == 0)
    }

    @Test func testHeaderlessInputNeedsColumnNames() throws {
        let fixture = try ImportFixture("Contacts", version: 2)
        let error = try #require(throws: ImportError.self) {
            try fixture.run(ArrayFieldReader(header: nil, rows: [["A", "B"]]), ImportOptions())
        }
        #expect(error.message.contains("--columns"))
        var options = ImportOptions()
        options.columns = ["firstName", "lastName"]
        _ = try fixture.run(ArrayFieldReader(header: nil, rows: [["A", "B"]]), options)
        #expect(try fixture.count("SELECT COUNT(*) FROM ZCONTACT") == 1)
    }

    @Test func testUUIDDefaultsAreFreshPerRowAndAMissingRequiredAttributeIsLocated() throws {
        let schema = """
            {"format": "strata-schema/1", "model": "Tickets", "version": 1, "entities": {"Ticket": {"attributes": {
              "code": {"type": "uuid", "default": "uuid"}, "title": {"type": "string"},
              "owner": {"type": "string"}}}}}
            """
        let fixture = try ImportFixture(
            model: try SchemaDecoder().decode(Data(schema.utf8), file: "T.json"))
        var options = ImportOptions()
        options.columns = ["title", "owner"]
        _ = try fixture.run(
            ArrayFieldReader(header: nil, rows: [["a", "x"], ["b", "y"]]), options)
        #expect(try fixture.count("SELECT COUNT(DISTINCT ZCODE) FROM ZTICKET") == 2)
        options.columns = ["title"]
        let error = try #require(throws: ImportError.self) {
            try fixture.run(ArrayFieldReader(header: nil, rows: [["c"]]), options)
        }
        #expect(error.code == .missingField)
        #expect(error.message == "owner is required, and the record gives no value")
        #expect(error.position.line == 2)
    }
}
