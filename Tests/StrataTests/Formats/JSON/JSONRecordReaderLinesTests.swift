import Foundation
import Testing

@testable import Strata
@testable import StrataFormats

/// JSON Lines (jsonlines.org, NDJSON): one object per line.
struct JSONRecordReaderLinesTests {
    let files: JSONTestFiles

    init() throws {
        files = try JSONTestFiles()
    }

    @Test func testEachLineIsARecordIndexedAmongRecords() throws {
        let text = "{\"a\": 1}\n\n  {\"b\": [2]}\t\n \t\n{\"c\": {\"d\": 3}}"
        let outcomes = try files.outcomes(text, name: "in.ndjson")
        #expect(outcomes.count == 3)
        expectPosition(
            outcomes[0].record?.position, line: 1, column: 1, byteOffset: 0, keyPath: "[0]")
        expectPosition(
            outcomes[1].record?.position, line: 3, column: 3, byteOffset: 12, keyPath: "[1]")
        guard case .array(let elements) = outcomes[1].record?["b"] else {
            Issue.record("expected an array")
            return
        }
        expectPosition(
            elements.first?.position, line: 3, column: 10, byteOffset: 19, keyPath: "[1].b[0]")
        expectPosition(
            outcomes[2].record?.position, line: 5, column: 1, byteOffset: 27, keyPath: "[2]")
        expectPosition(
            outcomes[2].record?.field("c")?.position, line: 5, column: 7, byteOffset: 33,
            keyPath: "[2].c")
        #expect(outcomes[1].record?.originalText == Data("{\"b\": [2]}".utf8))
    }

    @Test func testCRLFLineEndingsAndByteOrderMark() throws {
        let text: [UInt8] = [0xEF, 0xBB, 0xBF] + Array("{\"a\": 1}\r\n\r\n{\"a\": \"x\"}\r\n".utf8)
        let outcomes = try files.readAll(files.write(text, name: "in.jsonl"))
        #expect(outcomes.count == 2)
        expectPosition(
            outcomes[0].record?.position, line: 1, column: 1, byteOffset: 3, keyPath: "[0]")
        expectPosition(
            outcomes[1].record?.field("a")?.position, line: 3, column: 7, byteOffset: 21,
            keyPath: "[1].a")
        #expect(outcomes[1].record?["a"] == .text("x"))
        #expect(outcomes[1].record?.originalText == Data("{\"a\": \"x\"}".utf8))
    }

    @Test func testBadLineIsLocatedAndReadingGoesOnWithTheNextLine() throws {
        let path = try files.write(
            "{\"a\": 1}\n{\"a\": tru}\n\n{\"a\": 3}\n{\"a\": \n{\"a\": 5}\n", name: "in.ndjson")
        let reader = try JSONRecordReader(path: path)
        #expect(try reader.nextRecord()?["a"] == .integer(1))
        #expect(reader.lastErrorText == nil)
        var outcomes: [JSONOutcome] = []
        var texts: [Data?] = []
        while true {
            do {
                guard let record = try reader.nextRecord() else { break }
                outcomes.append(.record(record))
            } catch {
                outcomes.append(
                    .error(
                        error as? ImportError
                            ?? ImportError(.store, at: SourcePosition(file: ""), "")))
            }
            texts.append(reader.lastErrorText)
        }
        #expect(outcomes.count == 4)
        expectError(
            outcomes[0], .syntax, line: 2, column: 7, byteOffset: 15, keyPath: "[1]",
            message: "expected 'true'")
        #expect(texts[0] == Data("{\"a\": tru}".utf8))
        expectPosition(
            outcomes[1].record?.position, line: 4, column: 1, byteOffset: 21, keyPath: "[2]")
        expectError(
            outcomes[2], .syntax, line: 5, column: 6, byteOffset: 35, keyPath: "[3]",
            message: "found end of input")
        #expect(texts[2] == Data("{\"a\":".utf8))
        expectPosition(
            outcomes[3].record?.position, line: 6, column: 1, byteOffset: 37, keyPath: "[4]")
        #expect(texts[3] == nil)
    }

    @Test func testLineThatIsNotAnObjectIsAStructureError() throws {
        let outcomes = try files.outcomes("[1, 2]\n\"x\"\n{}\n", name: "in.ndjson")
        #expect(outcomes.count == 3)
        expectError(
            outcomes[0], .structure, line: 1, column: 1, byteOffset: 0, keyPath: "[0]",
            message: "found an array")
        expectError(
            outcomes[1], .structure, line: 2, column: 1, byteOffset: 7, keyPath: "[1]",
            message: "found a string")
        #expect(outcomes[2].record?.fields == [])
    }

    @Test func testEncodingErrorsInALineAreLocatedAtTheByte() throws {
        let input: [UInt8] =
            Array("{\"a\": \"é".utf8) + [0xE2, 0x82]
            + Array("\"}\n{\"b\": \"\\uDFFF\"}\n{\"c\": 1}".utf8)
        let outcomes = try files.readAll(files.write(input, name: "in.ndjson"))
        #expect(outcomes.count == 3)
        expectError(
            outcomes[0], .encoding, line: 1, column: 9, byteOffset: 9, keyPath: "[0]",
            message: "byte 0xE2")
        expectError(
            outcomes[1], .encoding, line: 2, column: 8, byteOffset: 21, keyPath: "[1]",
            message: "surrogate")
        #expect(outcomes[2].record?["c"] == .integer(1))
    }

    @Test func testOverlongLineIsTooLargeAndSkipped() throws {
        var limits = ImportLimits()
        limits.maximumRecordBytes = 16
        let text = "{\"a\": 1}\n{\"a\": \"far too long for the limit\"}\n{\"a\": 3}"
        for chunkSize in [1, 5, 1 << 20] {
            let outcomes = try files.readAll(
                files.write(text, name: "in.ndjson"), limits: limits, chunkSize: chunkSize)
            #expect(outcomes.count == 3)
            expectError(
                outcomes[1], .tooLarge, line: 2, column: 1, byteOffset: 9, keyPath: "[1]",
                message: "longer than the limit of 16 bytes")
            expectPosition(
                outcomes[2].record?.position, line: 3, column: 1, byteOffset: 45, keyPath: "[2]")
        }
    }

    @Test func testDepthAndDuplicateRulesHoldInLines() throws {
        var limits = ImportLimits()
        limits.maximumDepth = 2
        let text = "{\"a\": [1]}\n{\"a\": [[1]]}\n{\"k\": 1, \"k\": 2}\n"
        let outcomes = try files.outcomes(text, name: "in.ndjson", limits: limits)
        #expect(outcomes.count == 3)
        #expect(outcomes[0].record != nil)
        expectError(
            outcomes[1], .tooLarge, line: 2, column: 8, byteOffset: 18, keyPath: "[1].a[0]",
            message: "nesting deeper than 2")
        expectError(
            outcomes[2], .structure, line: 3, column: 10, byteOffset: 33, keyPath: "[2].k",
            message: "appears twice")
    }

    @Test func testEmptyInputGivesNoRecordsAndFullProgress() throws {
        let path = try files.write("\n \n", name: "in.ndjson")
        let reader = try JSONRecordReader(path: path)
        #expect(try reader.nextRecord() == nil)
        #expect(reader.bytesRead == 3 && reader.totalBytes == 3)
    }

    @Test func testBytesReadAdvancesLineByLine() throws {
        let text = (0..<20).map { "{\"n\": \($0)}\n" }.joined()
        let path = try files.write(text, name: "in.ndjson")
        let reader = try JSONRecordReader(path: path, lines: nil, limits: .init(), chunkSize: 16)
        var marks: [Int64] = []
        while try reader.nextRecord() != nil { marks.append(reader.bytesRead) }
        #expect(marks.count == 20)
        // Lines 0…9 are 9 bytes long, lines 10…19 are 10.
        let ends: [Int64] = (1...20).map { line in Int64(line * 9 + max(0, line - 10)) }
        #expect(marks == ends)
        #expect(marks.last == reader.totalBytes)
    }
}
