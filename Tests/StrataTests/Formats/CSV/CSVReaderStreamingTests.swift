import Foundation
import Testing

@testable import Strata
@testable import StrataFormats

/// Records that cross the buffer's end, at every byte: the same fields,
/// positions and errors whatever the buffer size.
struct CSVReaderStreamingTests {
    /// Every case at once: line endings of each kind, a blank line, quoted
    /// fields with delimiters, doubled quotes and line breaks, multi-byte
    /// characters, empty fields, and the errors the reader goes on after.
    static let trickyText =
        "id,text,note\r\n"
        + "1,\"multi\r\nline, with \"\"quotes\"\"\",é\n"
        + "\n"
        + "2,plain,\"ü€😀\"\r"
        + "3,,\"\"\r\n"
        + "4,\"x\"y,z\n"
        + "5,ragged\n"
        + "6,\"a\"\"\",\"\"\"\"\r\r\n"
        + "7,\"end\rof\nfile\",last\r"

    /// Everything a consumer can see of a whole read, one line per record or
    /// error.
    static func transcript(of reader: CSVReader) -> [String] {
        var lines = ["header \(reader.header ?? [])"]
        var lastError: ImportError?
        for _ in 0..<100 {
            do {
                guard try reader.nextRecord() else { break }
                let positions = (0..<reader.fieldCount).map { index in
                    let position = reader.position(ofField: index)
                    return "\(position.line):\(position.column)@\(position.byteOffset)"
                }
                lines.append(
                    "record \(reader.renderedFields()) at \(reader.recordPosition) "
                        + "@\(reader.recordPosition.byteOffset) fields \(positions) "
                        + "text \(Array(reader.recordText()))")
            } catch let error as ImportError {
                if error == lastError { break }
                lastError = error
                lines.append(
                    "error \(error.code) \(error) @\(error.position.byteOffset) "
                        + "text \(Array(reader.recordText()))")
            } catch {
                lines.append("unexpected \(error)")
                break
            }
        }
        lines.append("read \(reader.bytesRead) of \(reader.totalBytes ?? -1)")
        return lines
    }

    /// Reads `bytes` with buffers of 1 to 8, 13 and 64 bytes and expects the
    /// transcript of a 1 MiB buffer; returns that transcript.
    @discardableResult
    static func expectSameAtEveryBufferSize(
        _ bytes: [UInt8], dialect: CSVDialect, limits: ImportLimits = .init(),
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> [String] {
        let fixture = try CSVFixture()
        let path = try fixture.write(bytes, name: "tricky.csv")
        let expected = transcript(
            of: try CSVReader(path: path, dialect: dialect, limits: limits, bufferSize: 1 << 20))
        for bufferSize in Array(1...8) + [13, 64] {
            let reader = try CSVReader(
                path: path, dialect: dialect, limits: limits, bufferSize: bufferSize)
            #expect(
                transcript(of: reader) == expected, "buffer of \(bufferSize) bytes",
                sourceLocation: sourceLocation)
        }
        return expected
    }

    @Test func testEveryBufferSizeGivesTheSameRecordsPositionsAndErrors() throws {
        let expected = try Self.expectSameAtEveryBufferSize(
            Array(Self.trickyText.utf8), dialect: .csv)
        // The reference itself: the records and errors the text holds.
        let fixture = try CSVFixture()
        let reader = try fixture.reader(Self.trickyText)
        #expect(
            reader.events() == [
                .record(["1", "\"multi\r\nline, with \"quotes\"\"", "é"]),
                .record(["2", "plain", "\"ü€😀\""]),
                .record(["3", "", "\"\""]),
                .error(.syntax, "7:6"),
                .error(.structure, "8:1"),
                .record(["6", "\"a\"\"", "\"\"\""]),
                .record(["7", "\"end\rof\nfile\"", "last"]),
            ])
        #expect(expected.count == 9)
    }

    @Test func testEveryBufferSizeGivesTheSameEncodingErrors() throws {
        let bytes =
            Array("a,b\n\"x\"\"".utf8) + [0xE2, 0x82, 0xAC, 0xE2, 0x82] + Array("\",1\n".utf8)
            + Array("é,".utf8) + [0x00] + Array("\r\nok,\"ü\"".utf8)
        let expected = try Self.expectSameAtEveryBufferSize(bytes, dialect: .csv)
        #expect(expected.count == 5)
    }

    @Test func testEveryBufferSizeGivesTheSameSizeErrors() throws {
        var limits = ImportLimits()
        limits.maximumFieldBytes = 6
        limits.maximumRecordBytes = 14
        let text = "a,b\n1234567,x\n\"12\"\"34\"\"\",1\n\"1\n2\n3\n4\n5\n6\",7\nlast,one\r\n12,\"3"
        let expected = try Self.expectSameAtEveryBufferSize(
            Array(text.utf8), dialect: .csv, limits: limits)
        #expect(expected.count == 7)
    }

    @Test(arguments: [false, true])
    func testEveryBufferSizeGivesTheSameFromUTF16(bigEndian: Bool) throws {
        let utf8 = try Self.expectSameAtEveryBufferSize(
            Array(Self.trickyText.utf8), dialect: .csv)
        let utf16 = try Self.expectSameAtEveryBufferSize(
            utf16Bytes(Self.trickyText, bigEndian: bigEndian), dialect: .csv)
        // The same fields and lines; only byte offsets differ.
        #expect(utf16.count == utf8.count)
        #expect(utf16[1].hasPrefix("record [\"1\", \"\\\"multi\\r\\nline"))
    }

    @Test func testEveryBufferSizeGivesTheSameFromLatin1() throws {
        let text = Self.trickyText.replacingOccurrences(of: "€😀", with: "ÿ©")
        let latin1 = try #require(text.data(using: .isoLatin1))
        let transcript = try Self.expectSameAtEveryBufferSize(
            Array(latin1), dialect: CSVDialect(encoding: .latin1))
        #expect(transcript[2].hasPrefix("record [\"2\", \"plain\", \"\\\"üÿ©\\\"\"]"))
    }

    @Test func testEveryBufferSizeGivesTheSameForTxtLinesAndWholeLines() throws {
        let text = "Giulia;Dubois;\"giu0\"\r\nKenji;Smith;ken1\r\rAda;é;\"x;y\nlast;1;2"
        try Self.expectSameAtEveryBufferSize(
            Array(text.utf8), dialect: .lines(separatedBy: UInt8(ascii: ";")))
        try Self.expectSameAtEveryBufferSize(Array(text.utf8), dialect: .wholeLine)
    }

    /// Rows with quoted line breaks and doubled quotes, over 1 MiB, read
    /// with the default buffer: the row across the first buffer's end comes
    /// out whole.
    @Test func testRecordsAcrossTheOneMebibyteBoundary() throws {
        func row(_ index: Int) -> String {
            "\(index),\"line one of \(index)\r\nline two, \"\"quoted\"\"\",tail\(index)\r\n"
        }
        var text = "id,body,tail\r\n"
        var count = 0
        while text.utf8.count < (1 << 20) + 100_000 {
            text += row(count)
            count += 1
        }
        let fixture = try CSVFixture()
        let reader = try CSVReader(path: fixture.write(text))
        var index = 0
        var offset = Int64("id,body,tail\r\n".utf8.count)
        while try reader.nextRecord() {
            #expect(
                reader.renderedFields() == [
                    "\(index)", "\"line one of \(index)\r\nline two, \"quoted\"\"", "tail\(index)",
                ])
            #expect(reader.recordPosition.line == 2 + 2 * index)
            #expect(reader.recordPosition.byteOffset == offset)
            offset += Int64(row(index).utf8.count)
            index += 1
        }
        #expect(index == count)
        #expect(offset > 1 << 20)
    }

    @Test func testBufferGrowsForALongRecordAndShrinksAfterIt() throws {
        let fixture = try CSVFixture()
        let long = String(repeating: "ab\"\"", count: 1250)
        let reader = try fixture.reader("a,b\n1,\"\(long)\"\n2,x\n3,y\n", bufferSize: 64)
        #expect(try reader.nextRecord())
        #expect(
            String(decoding: reader.field(1), as: UTF8.self)
                == String(repeating: "ab\"", count: 1250))
        #expect(reader.capacity >= 5000)
        #expect(reader.events() == [.record(["2", "x"]), .record(["3", "y"])])
        #expect(reader.capacity == 64)
    }
}
