import Foundation
import Testing

/// `strata import` of dates that are not ISO 8601, as a user meets them
/// (issue 28, point 2): seattle-temps' slashed `2010/01/01 00:00`, read
/// with `--date-format` in a time zone whose clocks change.
struct ImportDateCommandTests {
    private let folder: ScratchFolder

    init() throws {
        folder = try ScratchFolder()
    }

    private func write(_ text: String) throws -> String {
        let input = folder.path("temps.csv")
        try Data(text.utf8).write(to: URL(fileURLWithPath: input))
        return input
    }

    @Test func aSlashedDateProposesDateFormat() throws {
        let input = try write("first,last,birthday\r\nAnna,Rossi,2010/01/01 00:00\r\n")
        let outcome = try StrataRunner.run([
            "import", folder.path("C.sqlite"), input, "--schemas", "Schemas/Contacts",
        ])
        #expect(outcome.status == 1)
        #expect(
            outcome.stderr
                == "error: \(input):2:12: '2010/01/01 00:00' is not an ISO 8601 date "
                + "(2024-05-01 or 2024-05-01T12:30:00Z); for dates like it, give "
                + "--date-format 'yyyy/MM/dd HH:mm'\n")
    }

    @Test func theProposedFormatImportsSlashedDatesAcrossADSTChange() throws {
        let input = try write(
            "first,last,birthday\r\nAnna,Rossi,2010/03/14 01:59\r\nLuca,Bianchi,2010/03/14 03:00\r\n"
                + "Olga,Petrov,2010/11/07 01:30\r\n")
        let store = folder.path("C.sqlite")
        let outcome = try StrataRunner.run([
            "import", store, input, "--schemas", "Schemas/Contacts", "--date-format",
            "yyyy/MM/dd HH:mm", "--time-zone", "America/Los_Angeles",
        ])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let query = try StrataRunner.run([
            "query", store, "Contact", "--fields", "firstName,birthday", "--sort", "birthday",
            "--format", "csv",
        ])
        #expect(
            query.stdout
                == "id,firstName,birthday\nContact/p1,Anna,2010-03-14T09:59:00Z\n"
                + "Contact/p2,Luca,2010-03-14T10:00:00Z\nContact/p3,Olga,2010-11-07T09:30:00Z\n",
            "\(query.stderr)")
    }

    @Test func aDateInADSTGapNamesTheGap() throws {
        let input = try write(
            "first,last,birthday\r\nAnna,Rossi,2010/03/14 01:59\r\nLuca,Bianchi,2010/03/14 02:00\r\n"
        )
        let store = folder.path("C.sqlite")
        let outcome = try StrataRunner.run([
            "import", store, input, "--schemas", "Schemas/Contacts", "--date-format",
            "yyyy/MM/dd HH:mm", "--time-zone", "America/Los_Angeles",
        ])
        #expect(outcome.status == 1)
        #expect(
            outcome.stderr
                == "error: \(input):3:14: '2010/03/14 02:00' does not exist in America/Los_Angeles: "
                + "clocks moved from 02:00 to 03:00 that day (daylight saving time began); "
                + "03:00 there would be 2010-03-14T10:00:00Z\n")
        #expect(!FileManager.default.fileExists(atPath: store))
    }
}
