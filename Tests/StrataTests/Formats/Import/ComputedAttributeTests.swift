import Foundation
import Testing

@testable import Strata
@testable import StrataFormats

/// Issue 27, point 4: `compute` expressions of a mapping file are checked
/// before anything is written — functions, arguments and types when the
/// file loads, field names against the input — never NULL in every row.
struct ComputedAttributeTests {
    /// Where the expressions of these tests are written.
    static let place = SourcePosition(
        file: "m.mapping.json", line: 3, column: 20, keyPath: "$.compute.prepTime")

    static func computing(_ expression: String) throws -> ImportOptions {
        var options = ImportOptions(entity: "Recipe")
        options.computed = [
            try ComputedAttribute(attribute: "prepTime", expression: expression, at: place)
        ]
        return options
    }

    @Test(arguments: [
        "nosuchfn(num)", "lower()", "before(num)", "replace(num)", "round()", "matches(num)",
        "integer(num, num)", "prefix(num, \"3\")", "integer(upper(length(num)))",
        "count(matches(num, \"(\"))", "concatenate()", "`` + 1",
    ])
    func testBadCallsAreRefusedWhenTheMappingLoads(expression: String) {
        let error = #expect(throws: ImportError.self) {
            _ = try ComputedAttribute(
                attribute: "prepTime", expression: expression, at: Self.place)
        }
        #expect(error?.position.file == "m.mapping.json")
        #expect(error?.position.keyPath == "$.compute.prepTime")
        #expect(error?.position.line == 3)
        #expect((error?.position.column ?? 0) > 20)
        #expect(error?.message.hasPrefix("in the expression for prepTime: ") == true)
    }

    @Test func testTooFewArgumentsNameTheFunctionsUsage() {
        let error = #expect(throws: ImportError.self) {
            _ = try ComputedAttribute(
                attribute: "prepTime", expression: "integer(before(num))", at: Self.place)
        }
        #expect(
            error?.message
                == "in the expression for prepTime: before takes 2 arguments, found 1; "
                + "write before(text, separator)")
        #expect(error?.position.column == 20 + 9)
    }

    @Test func testAFieldTheHeaderLacksIsRefusedBeforeAnyRow() throws {
        let fixture = try ImportFixture("Recipes")
        let reader = ArrayFieldReader(header: ["name", "num"], rows: [["Soup", "45"]])
        let error = try #require(throws: ImportError.self) {
            try fixture.run(reader, Self.computing("integer(nmu)"))
        }
        #expect(error.code == .unknownField)
        #expect(error.position.file == "m.mapping.json")
        #expect(error.position.column == 20 + 9)
        #expect(error.message.contains("the input has no field 'nmu'; its fields: name, num"))
        #expect(try fixture.count("SELECT COUNT(*) FROM ZRECIPE") == 0)
    }

    @Test func testTextFieldsMustBeConvertedBeforeArithmetic() throws {
        let fixture = try ImportFixture("Recipes")
        let error = try #require(throws: ImportError.self) {
            try fixture.run(
                ArrayFieldReader(header: ["name", "num"], rows: [["Soup", "44.6"]]),
                Self.computing("round(num)"))
        }
        #expect(error.message.contains("argument 1 of round takes an integer or a number"))
        _ = try fixture.run(
            ArrayFieldReader(header: ["name", "num"], rows: [["Soup", "44.6"]]),
            Self.computing("round(number(num))"))
        #expect(try fixture.rows("SELECT ZNAME, ZPREPTIME FROM ZRECIPE") == [["Soup", "45"]])
    }

    @Test func testAFieldNameThatIsNoWordIsWrittenBetweenBackquotes() throws {
        let fixture = try ImportFixture("Recipes")
        _ = try fixture.run(
            ArrayFieldReader(
                header: ["name", "Culmen Length (mm)"], rows: [["Adelie", "39.1"]]),
            Self.computing("round(number(`Culmen Length (mm)`) * 10)"))
        #expect(try fixture.rows("SELECT ZNAME, ZPREPTIME FROM ZRECIPE") == [["Adelie", "391"]])
        let unknown = try #require(throws: ImportError.self) {
            try fixture.run(
                ArrayFieldReader(header: ["name", "Culmen Length (mm)"], rows: []),
                Self.computing("integer(culmen)"))
        }
        #expect(unknown.message.contains("between backquotes"))
    }

    @Test func testARecordsFieldNoRecordHasIsRefusedAndNothingWritten() throws {
        let fixture = try ImportFixture("Recipes")
        let records: [[(String, RecordValue)]] = [
            [("name", .text("Soup")), ("num", .text("45"))],
            [("name", .text("Stew")), ("num", .text("90"))],
        ]
        // The raw field is left out; only the expression was to read it.
        var options = try Self.computing("integer(nmu)")
        options.ignoresUnknownFields = true
        let error = try #require(throws: ImportError.self) {
            try fixture.run(ArrayRecordReader(records), options)
        }
        #expect(error.code == .unknownField)
        #expect(error.message.contains("the input has no field 'nmu'"))
        #expect(try fixture.count("SELECT COUNT(*) FROM ZRECIPE") == 0)
        // A field only some records have is read as nil where it is missing.
        let partial: [[(String, RecordValue)]] = [
            [("name", .text("Soup"))], [("name", .text("Stew")), ("num", .text("90"))],
        ]
        _ = try fixture.run(ArrayRecordReader(partial), Self.computing("integer(num)"))
        #expect(
            try fixture.rows("SELECT ZNAME, ZPREPTIME FROM ZRECIPE ORDER BY ZNAME") == [
                ["Soup", "NULL"], ["Stew", "90"],
            ])
    }

    @Test func testAComputedValueLargerThanAFieldIsRefused() throws {
        let fixture = try ImportFixture("Recipes")
        var options = ImportOptions(entity: "Recipe")
        options.limits.maximumFieldBytes = 1_000
        var expression = "x"
        for _ in 0..<12 { expression = "replace(\(expression), \"a\", \"aaaaaaaaaa\")" }
        options.computed = [
            try ComputedAttribute(attribute: "name", expression: expression, at: Self.place)
        ]
        let error = try #require(throws: ImportError.self) {
            try fixture.run(ArrayFieldReader(header: ["x"], rows: [["a"]]), options)
        }
        #expect(error.code == .invalidValue)
        #expect(error.message.contains("the result would hold 10000 bytes, more than the limit"))
        #expect(try fixture.count("SELECT COUNT(*) FROM ZRECIPE") == 0)
    }
}

/// Issue 27, point 4: a `strata-import/1` file's keys each appear once.
struct ImportMappingFileKeyTests {
    @Test func testADuplicatedKeyIsRefusedWithItsLine() throws {
        let folder = try TemporaryDirectory()
        let file = folder.file("dup.mapping.json")
        try Data(
            """
            {"format": "strata-import/1",
             "compute": {"prepTime": "integer(num)",
                         "prepTime": "integer(nmu)"}}
            """.utf8
        ).write(to: file)
        var options = ImportOptions()
        let error = try #require(throws: ImportError.self) {
            try ImportMappingFile.apply(file.path, to: &options)
        }
        #expect(error.position.line == 3)
        #expect(error.position.keyPath == "$.compute.prepTime")
        #expect(error.message.hasPrefix("duplicate key 'prepTime' (first at line 2"))
        try Data(
            #"{"format": "strata-import/1", "entity": "A", "entity": "B"}"#.utf8
        ).write(to: file)
        let top = try #require(throws: ImportError.self) {
            try ImportMappingFile.apply(file.path, to: &options)
        }
        #expect(top.position.keyPath == "$.entity")
    }
}
