import Foundation
import Testing

/// Issue 27, point 8, run as a user runs it: fields beyond `--columns` are a
/// located error unless `--ignore-unknown`; a record may end before its
/// optional trailing columns.
struct ImportColumnsCommandTests {
    private let folder: ScratchFolder

    init() throws {
        folder = try ScratchFolder()
    }

    private func importing(_ text: String, _ extra: [String]) throws -> StrataRunner.Outcome {
        let input = folder.path("in.csv")
        try Data(text.utf8).write(to: URL(fileURLWithPath: input))
        return try StrataRunner.run(
            [
                "import", folder.path("c.sqlite"), input, "--schemas", "Schemas/Contacts",
                "--no-header",
            ]
                + extra)
    }

    @Test func testFieldsBeyondTheColumnsAreRefusedAtTheirPlace() throws {
        let outcome = try importing("Ann,Lee,x,y\n", ["--columns", "firstName,lastName"])
        #expect(outcome.status == 1)
        #expect(
            outcome.stderr.contains(
                "in.csv:1:9: the record has 4 fields, but the columns name 2"), "\(outcome.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.path("c.sqlite")))
        let ignored = try importing(
            "Ann,Lee,x,y\n", ["--columns", "firstName,lastName", "--ignore-unknown"])
        #expect(ignored.status == 0, "\(ignored.stderr)")
    }

    @Test func testARecordMayEndBeforeItsOptionalTrailingColumns() throws {
        let outcome = try importing(
            "Ann,Lee,ann\nBo,Ek,bo,bo@x.org\n", ["--columns", "firstName,lastName,nickname,email"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stdout.contains("2 inserted"), "\(outcome.stdout)")
    }
}
