import Foundation
import Testing

@testable import Strata
@testable import StrataFormats

/// Issue 28, point 2 (dates) and 7b: date fields read with a date format
/// across DST changes, and the errors that name the fix.
struct DateFieldReaderTests {
    private static let header = ["first", "last", "birthday"]

    private static func options(_ format: String?, zone: String) throws -> ImportOptions {
        var options = ImportOptions(entity: "Contact")
        options.dateFormat = format
        options.timeZone = try #require(TimeZone(identifier: zone))
        return options
    }

    @Test func slashedDatesAcrossADSTChangeReadInTheImportsTimeZone() throws {
        let fixture = try ImportFixture("Contacts", version: 2)
        let values = [
            "2010/03/14 01:59", "2010/03/14 03:00", "2010/11/07 01:30", "2012/02/29 12:00",
            "2010/3/7 9:05",
        ]
        let reader = ArrayFieldReader(
            header: Self.header, rows: values.map { ["Anna", "Rossi", $0] })
        _ = try fixture.run(
            reader, try Self.options("yyyy/MM/dd HH:mm", zone: "America/Los_Angeles"))
        let stored = try fixture.rows("SELECT ZBIRTHDAY FROM ZCONTACT ORDER BY Z_PK").map {
            ISO8601Date.string(from: Double($0[0]) ?? .nan) ?? $0[0]
        }
        #expect(
            stored == [
                "2010-03-14T09:59:00Z", "2010-03-14T10:00:00Z", "2010-11-07T09:30:00Z",
                "2012-02-29T20:00:00Z", "2010-03-07T17:05:00Z",
            ])
    }

    @Test func aDateInADSTGapNamesTheGap() throws {
        let fixture = try ImportFixture("Contacts", version: 2)
        let reader = ArrayFieldReader(
            header: Self.header,
            rows: [
                ["Anna", "Rossi", "2010/03/14 01:59"], ["Luca", "Bianchi", "2010/03/14 02:30"],
            ]
        )
        let error = try #require(throws: ImportError.self) {
            try fixture.run(
                reader, try Self.options("yyyy/MM/dd HH:mm", zone: "America/Los_Angeles"))
        }
        #expect(error.code == .invalidValue)
        #expect(error.position.line == 3)
        #expect(
            error.message
                == "'2010/03/14 02:30' does not exist in America/Los_Angeles: clocks moved from "
                + "02:00 to 03:00 that day (daylight saving time began); 03:30 there would be "
                + "2010-03-14T10:30:00Z")
        #expect(try fixture.count("SELECT COUNT(*) FROM ZCONTACT") == 0)
    }

    @Test func aDateInBerlinsGapNamesTheGap() throws {
        let fixture = try ImportFixture("Contacts", version: 2)
        let reader = ArrayFieldReader(
            header: Self.header, rows: [["Anna", "Rossi", "28.03.2010 02:15"]])
        let error = try #require(throws: ImportError.self) {
            try fixture.run(reader, try Self.options("dd.MM.yyyy HH:mm", zone: "Europe/Berlin"))
        }
        #expect(
            error.message
                == "'28.03.2010 02:15' does not exist in Europe/Berlin: clocks moved from 02:00 "
                + "to 03:00 that day (daylight saving time began); 03:15 there would be "
                + "2010-03-28T01:15:00Z")
    }

    @Test func aSlashedDateProposesDateFormat() throws {
        let fixture = try ImportFixture("Contacts", version: 2)
        let reader = ArrayFieldReader(
            header: Self.header, rows: [["Anna", "Rossi", "2010/01/01 00:00"]])
        let error = try #require(throws: ImportError.self) {
            try fixture.run(reader, try Self.options(nil, zone: "UTC"))
        }
        #expect(
            error.message
                == "'2010/01/01 00:00' is not an ISO 8601 date (2024-05-01 or 2024-05-01T12:30:00Z); "
                + "for dates like it, give --date-format 'yyyy/MM/dd HH:mm'")
    }

    @Test func anAmbiguousDateProposesBothOrders() throws {
        let fixture = try ImportFixture("Contacts", version: 2)
        let reader = ArrayFieldReader(
            header: Self.header, rows: [["Anna", "Rossi", "03/04/2010"]])
        let error = try #require(throws: ImportError.self) {
            try fixture.run(reader, try Self.options(nil, zone: "UTC"))
        }
        #expect(
            error.message.hasSuffix(
                "give --date-format 'MM/dd/yyyy' (or 'dd/MM/yyyy' if the day comes first)"))
    }

    @Test func aValueThePatternLeavesIsStillReadAsTheFormatterReadsIt() throws {
        // A month in lower case: the formatter's to read.
        let fixture = try ImportFixture("Contacts", version: 2)
        let reader = ArrayFieldReader(
            header: Self.header, rows: [["Anna", "Rossi", "05 jan 2010"], ["Luca", "B", "x"]])
        var options = try Self.options("dd MMM yyyy", zone: "UTC")
        options.errorPolicy = .skip
        let summary = try fixture.run(reader, options)
        #expect(summary.inserted == 1)
        // 2010-01-05T00:00:00Z.
        #expect(try fixture.rows("SELECT ZBIRTHDAY FROM ZCONTACT") == [["284342400"]])
    }
}
