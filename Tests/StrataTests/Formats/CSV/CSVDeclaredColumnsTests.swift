import Foundation
import Testing

@testable import Strata
@testable import StrataFormats

/// Issue 27, point 8: declared columns (`--columns`) are the shape of a
/// headerless file's records, not its first line; a field beyond them is
/// refused at its place unless unknown fields are ignored.
struct CSVDeclaredColumnsTests {
    private func importing(
        _ text: String, columns: [String], options edit: (inout ImportOptions) -> Void = { _ in }
    ) throws -> (ImportFixture, Result<ImportSummary, any Error>) {
        let fixture = try ImportFixture("Contacts", version: 2)
        let csv = try CSVFixture()
        let reader = try CSVReader(
            path: csv.write(text), dialect: CSVDialect(hasHeader: false))
        var options = ImportOptions(entity: "Contact")
        options.columns = columns
        edit(&options)
        return (fixture, Result { try fixture.run(reader, options) })
    }

    @Test func testFieldsBeyondTheColumnsAreRefusedAtTheFirstOfThem() throws {
        let (fixture, result) = try importing("Ann,Lee,x,y\n", columns: ["firstName", "lastName"])
        let error = try #require(throws: ImportError.self) { try result.get() }
        #expect(error.code == .unknownField)
        #expect((error.position.line, error.position.column) == (1, 9))
        #expect(error.message.contains("the record has 4 fields, but the columns name 2"))
        #expect(try fixture.count("SELECT COUNT(*) FROM ZCONTACT") == 0)
    }

    @Test func testFieldsBeyondTheColumnsAreDroppedWhenUnknownFieldsAreIgnored() throws {
        let (fixture, result) = try importing(
            "Ann,Lee,x,y\n", columns: ["firstName", "lastName"]
        ) { $0.ignoresUnknownFields = true }
        #expect(try result.get().inserted == 1)
        #expect(try fixture.rows("SELECT ZFIRSTNAME, ZLASTNAME FROM ZCONTACT") == [["Ann", "Lee"]])
    }

    @Test func testARecordMayEndBeforeItsOptionalTrailingFields() throws {
        // The first line has 3 fields, the second 4: both fit the 4 columns.
        let (fixture, result) = try importing(
            "Ann,Lee,ann\nBo,Ek,bo,bo@x.org\n",
            columns: ["firstName", "lastName", "nickname", "email"])
        #expect(try result.get().inserted == 2)
        #expect(
            try fixture.rows("SELECT ZFIRSTNAME, ZNICKNAME, ZEMAIL FROM ZCONTACT ORDER BY Z_PK")
                == [
                    ["Ann", "ann", "NULL"], ["Bo", "bo", "bo@x.org"],
                ])
    }

    @Test func testAShortRecordStillNeedsItsRequiredFields() throws {
        let (fixture, result) = try importing(
            "Ann\n", columns: ["firstName", "lastName", "nickname"])
        let error = try #require(throws: ImportError.self) { try result.get() }
        #expect(error.code == .missingField)
        #expect(try fixture.count("SELECT COUNT(*) FROM ZCONTACT") == 0)
    }

    @Test func testWithoutDeclaredColumnsTheFirstRecordIsStillTheShape() throws {
        let csv = try CSVFixture()
        let reader = try csv.reader("a,b,c\nd,e\n", dialect: CSVDialect(hasHeader: false))
        #expect(try reader.nextRecord())
        let error = try #require(throws: ImportError.self) { try reader.nextRecord() }
        #expect(error.message == "the record has 2 fields; the first record has 3")
    }
}
