import Foundation
import Testing

@testable import Strata
@testable import StrataFormats

/// The rejects file for JSON inputs: JSON Lines with the reason added.
struct JSONRecordWriterTests {
    let files: JSONTestFiles

    init() throws {
        files = try JSONTestFiles()
    }

    let reason = ImportError(
        .invalidValue, at: SourcePosition(file: "in.json", line: 2, column: 9, keyPath: "[0].age"),
        "expected an integer, found \"ten\"")

    func written(_ body: (JSONRecordWriter) throws -> Void) throws -> String {
        let path = files.folder.file("rejects.ndjson").path
        let writer = try JSONRecordWriter(path: path)
        try body(writer)
        try writer.close()
        return try String(contentsOfFile: path, encoding: .utf8)
    }

    @Test func testRecordIsWrittenVerbatimOnOneLineWithTheReasonFirst() throws {
        let element = "{\n  \"age\": \"ten\",\r\n  \"n\": 1.50E+1, \"s\": \"a\\u0041\\n\"\n}"
        let path = try files.write("[\(element), {}]")
        let reader = try JSONRecordReader(path: path)
        let first = try #require(try reader.nextRecord())
        let empty = try #require(try reader.nextRecord())
        let text = try written { writer in
            try writer.write(first, error: reason)
            try writer.write(empty, error: reason)
        }
        let reasonJSON =
            #""strata_error":"in.json:2:9 (at [0].age): expected an integer, found \"ten\"""#
        #expect(
            text
                == "{\(reasonJSON),   \"age\": \"ten\",    \"n\": 1.50E+1, \"s\": \"a\\u0041\\n\" }\n"
                + "{\(reasonJSON)}\n")
    }

    @Test func testFieldsAreSerializedWithTheEscapesOfRFC8259() throws {
        let position = SourcePosition(file: "x")
        func field(_ key: String, _ value: RecordValue) -> RecordField {
            RecordField(key: key, value: value, position: position)
        }
        let record = ImportRecord(
            fields: [
                field("s", .text("q\"b\\s/\u{08}\u{0C}\n\r\t\u{01}\u{1F}é😀\u{2028}")),
                field("i", .integer(-7)), field("u", .unsignedInteger(.max)),
                field("r", .real(0.1)), field("e", .real(1e300)), field("inf", .real(.infinity)),
                field("b", .boolean(false)), field("n", .null),
                field("d", .date(Date(timeIntervalSinceReferenceDate: 0))),
                field("bytes", .data(Data([0, 255]))),
                field("a", .array([field("0", .integer(1)), field("1", .dictionary([]))])),
                field("o", .dictionary([field("k", .array([]))])),
            ], position: position)
        let text = try written { try $0.write(record, error: reason) }
        let expected =
            #"{"strata_error":"in.json:2:9 (at [0].age): expected an integer, found \"ten\"","#
            + #""s":"q\"b\\s/\b\f\n\r\t\u0001\u001Fé😀"# + "\u{2028}" + #"","#
            + #""i":-7,"u":18446744073709551615,"r":0.1,"e":1e+300,"inf":null,"b":false,"n":null,"#
            + #""d":"2001-01-01T00:00:00Z","bytes":"AP8=","a":[1,{}],"o":{"k":[]}}"# + "\n"
        #expect(text == expected)
        // The line reads back as the same values, plus the reason.
        let back = try files.outcomes(text, name: "back.ndjson").first?.record
        #expect(back?.fields.first?.key == JSONRecordWriter.errorKey)
        #expect(back?["s"] == record["s"])
        #expect(back?["u"] == .unsignedInteger(.max))
        #expect(back?["r"] == .real(0.1))
    }

    @Test func testTextThatIsNotAnObjectIsKeptAsAString() throws {
        let path = try files.write("{\"a\": tru}\n", name: "bad.ndjson")
        let reader = try JSONRecordReader(path: path)
        var caught: ImportError?
        do { _ = try reader.nextRecord() } catch { caught = error as? ImportError }
        let error = try #require(caught)
        let text = try written { writer in
            try writer.write(text: try #require(reader.lastErrorText), error: error)
        }
        let back = try files.outcomes(text, name: "back.ndjson").first?.record
        #expect(back?[JSONRecordWriter.textKey] == .text("{\"a\": tru}"))
        #expect(back?[JSONRecordWriter.errorKey] == .text(error.description))
    }

    @Test func testRejectWriterWritesEachKindOfReject() throws {
        let position = SourcePosition(file: "x")
        let record = ImportRecord(
            fields: [RecordField(key: "a", value: .integer(1), position: position)],
            position: position)
        let text = try written { writer in
            let rejects: any RejectWriter = writer
            try rejects.write(
                RejectedRecord(error: reason, originalText: Data("{ }".utf8), record: nil))
            try rejects.write(RejectedRecord(error: reason, originalText: nil, record: record))
            try rejects.write(
                RejectedRecord(error: reason, originalText: Data("[1".utf8), record: nil))
            try rejects.write(RejectedRecord(error: reason, originalText: nil, record: nil))
            try rejects.finish()
        }
        let why = #""strata_error":"in.json:2:9 (at [0].age): expected an integer, found \"ten\"""#
        #expect(
            text == "{\(why) }\n{\(why),\"a\":1}\n{\(why),\"strata_text\":\"[1\"}\n{\(why)}\n")
    }

    @Test func testAsArrayTheLinesAreTheElementsOfOneArrayThatReadsBack() throws {
        let path = try files.write(#"[{"age": "ten"}, {"age": "eleven"}]"#)
        let reader = try JSONRecordReader(path: path)
        let first = try #require(try reader.nextRecord())
        let second = try #require(try reader.nextRecord())
        let rejects = files.folder.file("rejects.json").path
        let writer = try JSONRecordWriter(path: rejects, asArray: true)
        try writer.write(first, error: reason)
        try writer.write(second, error: reason)
        try writer.close()
        let text = try String(contentsOfFile: rejects, encoding: .utf8)
        #expect(text.hasPrefix("[{") && text.hasSuffix("}]\n"), "\(text)")
        #expect(text.split(separator: "\n").count == 2)
        let records = files.readAll(try JSONRecordReader(path: rejects))
        #expect(records.map { $0.record?["age"] } == [.text("ten"), .text("eleven")])
    }
}
