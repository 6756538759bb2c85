import Foundation
import Testing

@testable import Strata
@testable import StrataFormats

struct TextBlockWriterTests {
    let fixture: TextFixture

    init() throws { fixture = try TextFixture() }

    func field(_ key: String, _ value: RecordValue) -> RecordField {
        RecordField(key: key, value: value, position: SourcePosition(file: "in.txt", line: 7))
    }

    func record(_ fields: [RecordField], originalText: String? = nil) -> ImportRecord {
        ImportRecord(
            fields: fields, position: SourcePosition(file: "in.txt", line: 5),
            originalText: originalText.map { Data($0.utf8) })
    }

    func text(_ record: ImportRecord, reason: String = "bad") throws -> String {
        String(decoding: try TextBlockWriter.block(for: record, reason: reason), as: UTF8.self)
    }

    func expectRefused(_ record: ImportRecord, _ words: String, line: Int = 7) {
        #expect {
            _ = try TextBlockWriter.block(for: record, reason: "r")
        } throws: {
            guard let error = $0 as? ImportError else { return false }
            return error.code == .structure && error.message.contains(words)
                && error.position.line == line
        }
    }

    @Test func testRejectedBlocksReadBackAsTheSameRecordsWithReasonsSkipped() throws {
        let input = try fixture.write(
            "in.txt", "Date: x\r\nTitle: T\r\nBody line\r\nKey: body too\r\n\r\nDate: y\nb\n")
        let records = readAll(try TextBlockReader(path: input)).compactMap(\.record)
        let rejects = fixture.path("rejects.txt")
        let writer = try TextBlockWriter(path: rejects)
        try writer.write(records[0], reason: "line 1: Date: not a date\nsecond line")
        try writer.write(records[1], reason: "line 6: Date: not a date")
        try writer.close()
        let written = try String(contentsOfFile: rejects, encoding: .utf8)
        #expect(
            written == "#strata-error: line 1: Date: not a date second line\n"
                + "Date: x\r\nTitle: T\r\nBody line\r\nKey: body too\n\n"
                + "#strata-error: line 6: Date: not a date\nDate: y\nb\n\n")
        let again = readAll(try TextBlockReader(path: rejects)).compactMap(\.record)
        #expect(again.map(\.keys) == records.map(\.keys))
        #expect(again.map { $0.fields.map(\.value) } == records.map { $0.fields.map(\.value) })
    }

    @Test func testOriginalTextEndingInALineBreakGetsOneLineFeed() throws {
        for ending in ["\n", "\r", "\r\n", ""] {
            let written = try text(record([], originalText: "A: 1\r\nbody" + ending))
            #expect(written == "#strata-error: bad\nA: 1\r\nbody\n\n")
        }
    }

    @Test func testRecordsWithoutOriginalTextAreBuiltFromTheirFields() throws {
        let date = Date(timeIntervalSince1970: 1_700_000_000)
        let written = try text(
            record([
                field("Title", .text("Walk")), field("Count", .integer(3)),
                field("Done", .boolean(true)), field("When", .date(date)),
                field("Nothing", .null), field("Empty", .text("")),
                field("body", .text("First line.\nNote: still body\n  indented")),
            ]))
        #expect(
            written == """
                #strata-error: bad
                Title: Walk
                Count: 3
                Done: true
                When: 2023-11-14T22:13:20Z
                Empty:
                First line.
                Note: still body
                  indented


                """)
        let path = try fixture.write("w.txt", written)
        let back = try #require(readAll(try TextBlockReader(path: path)).first?.record)
        #expect(back.keys == ["Title", "Count", "Done", "When", "Empty", "body"])
        #expect(back.text("body") == "First line.\nNote: still body\n  indented")
    }

    @Test func testOriginalTextThatWouldSplitFallsBackToTheFields() throws {
        // A txt-files record: its text has blank lines, its fields do not.
        let written = try text(
            record(
                [field("title", .text("Note")), field("body", .text("One line"))],
                originalText: "Note\n\nOne line\n"))
        #expect(written == "#strata-error: bad\ntitle: Note\nOne line\n\n")
    }

    @Test func testBlankLinesInsideTheBodyAreRefusedNotWrittenDifferently() {
        expectRefused(
            record([field("body", .text("Para one.\n\nPara two."))]), "line 2 of the body is blank")
        expectRefused(record([field("body", .text("Para one.\n \nPara two."))]), "is blank")
    }

    @Test func testBodyWhoseFirstLineReadsAsAHeaderIsRefused() {
        expectRefused(
            record([field("Title", .text("T")), field("body", .text("Note: x\nmore"))]),
            "first line would read as a header")
    }

    @Test func testBodyLineStartingLikeAReasonLineIsRefused() {
        expectRefused(
            record([field("body", .text("ok\n#strata-error: x"))]), "starts with #strata-error:")
    }

    @Test func testHeadersThatWouldNotReadBackAreRefused() {
        expectRefused(record([field("Title", .text("two\nlines"))]), "line break")
        expectRefused(record([field("Title", .text(" padded"))]), "would not read back")
        expectRefused(record([field("a/b", .text("x"))]), "would not read back")
        expectRefused(
            record([field("Title", .text("a")), field("title", .text("b"))]), "same name")
        expectRefused(record([field("List", .array([]))]), "nested")
        expectRefused(record([field("body", .text("carriage\rreturn"))]), "carriage return")
    }

    @Test func testARecordWithNothingToWriteIsRefusedAtItsPosition() {
        expectRefused(record([field("Nothing", .null)]), "no field", line: 5)
    }

    @Test func testDataIsWrittenAsBase64() throws {
        let written = try text(record([field("Photo", .data(Data([1, 2, 3])))]))
        #expect(written == "#strata-error: bad\nPhoto: AQID\n\n")
    }
}
