import Foundation
import Testing

@testable import Strata
@testable import StrataFormats

/// Bad documents: every error located exactly, and the reader going on
/// after the errors confined to one record.
struct JSONRecordReaderErrorTests {
    let files: JSONTestFiles

    init() throws {
        files = try JSONTestFiles()
    }

    @Test func testElementThatIsNotAnObjectIsAStructureErrorNamingItsKeyPath() throws {
        let outcomes = try files.outcomes(
            "[{\"a\": 1}, 2, \"s\",\n [1, {}], null, {\"b\": 2}, -1.5e3]")
        #expect(outcomes.count == 7)
        #expect(outcomes[0].record?["a"] == .integer(1))
        expectError(
            outcomes[1], .structure, line: 1, column: 12, byteOffset: 11, keyPath: "[1]",
            message: "found a number")
        expectError(
            outcomes[2], .structure, line: 1, column: 15, byteOffset: 14, keyPath: "[2]",
            message: "found a string")
        expectError(
            outcomes[3], .structure, line: 2, column: 2, byteOffset: 20, keyPath: "[3]",
            message: "found an array")
        expectError(
            outcomes[4], .structure, line: 2, column: 11, byteOffset: 29, keyPath: "[4]",
            message: "found null")
        #expect(outcomes[5].record?["b"] == .integer(2))
        expectError(
            outcomes[6], .structure, line: 2, column: 27, byteOffset: 45, keyPath: "[6]",
            message: "found a number")
    }

    @Test func testRootThatIsNotAnArrayOrObjectIsAStructureError() throws {
        for (text, kind) in [("\"x\"", "a string"), ("  42", "a number"), ("null", "null")] {
            let outcomes = try files.outcomes(text)
            #expect(outcomes.count == 1)
            expectError(
                outcomes.first, .structure, line: 1, column: text.hasPrefix(" ") ? 3 : 1,
                message:
                    "the root value is \(kind); expected an array of objects, or an object whose values are arrays of objects"
            )
        }
        expectError(
            try files.outcomes("\n  x").first, .syntax, line: 2, column: 3, byteOffset: 3,
            message: "found 'x'")
        expectError(
            try files.outcomes("").first, .syntax, line: 1, column: 1, byteOffset: 0,
            message: "found end of input")
    }

    @Test func testRootObjectWithNoArrayOfRecordsIsAStructureErrorNamingItsMembers() throws {
        let outcomes = try files.outcomes("{\"name\": \"x\",\n \"count\": 2}")
        #expect(outcomes.count == 1)
        expectError(
            outcomes[0], .structure, line: 2, column: 13, byteOffset: 26,
            message:
                "the document's root object holds no array of records (members: \"name\", "
                + "\"count\"); give --path to the array to read")
    }

    @Test func testTrailingCommasAreSyntaxErrors() throws {
        let array = try files.outcomes("[{\"a\": 1},\n]")
        #expect(array.count == 2)
        expectError(
            array[1], .syntax, line: 2, column: 1, byteOffset: 11,
            message: "expected a value after ',', found ']'")
        let object = try files.outcomes("{\"r\": [{}],}")
        expectError(
            object.last, .syntax, line: 1, column: 12, byteOffset: 11,
            message: "expected a string key after ',', found '}'")
        let member = try files.outcomes("[{\"a\": 1,}, {}]")
        #expect(member.count == 1)
        expectError(
            member[0], .syntax, line: 1, column: 10, byteOffset: 9, keyPath: "[0]",
            message: "expected a string key after ','")
    }

    @Test func testSyntaxErrorEndsTheReadingAndIsThrownAgain() throws {
        let path = try files.write("[{\"a\": 1} {\"b\": 2}]")
        let reader = try JSONRecordReader(path: path)
        #expect(try reader.nextRecord()?["a"] == .integer(1))
        var errors: [ImportError] = []
        for _ in 0..<3 {
            do { _ = try reader.nextRecord() } catch {
                errors.append(
                    error as? ImportError ?? ImportError(.store, at: SourcePosition(file: ""), ""))
            }
        }
        #expect(errors.count == 3)
        expectError(
            errors.first.map(JSONOutcome.error), .syntax, line: 1, column: 11, byteOffset: 10,
            message: "expected ',' or ']' after the element [0], found '{'")
        #expect(Set(errors).count == 1)
    }

    @Test func testTruncatedFileIsASyntaxErrorAtItsEnd() throws {
        let cut = try files.outcomes("[\n{\"a\": 1},\n{\"b\": 2")
        #expect(cut.count == 2)
        expectError(
            cut[1], .syntax, line: 3, column: 8, byteOffset: 19, keyPath: "[1]",
            message: "found end of input")
        let openString = try files.outcomes("[{\"a\": \"abc")
        expectError(
            openString.last, .syntax, line: 1, column: 8, byteOffset: 7,
            message: "unterminated string")
        let afterElement = try files.outcomes("[{\"a\": 1}\n")
        expectError(
            afterElement.last, .syntax, line: 2, column: 1, byteOffset: 10,
            message: "found end of input")
        let bareNumber = try files.outcomes("[{}, 12")
        #expect(bareNumber.count == 3)
        expectError(bareNumber[1], .structure, line: 1, column: 6, keyPath: "[1]")
        expectError(
            bareNumber[2], .syntax, line: 1, column: 8, byteOffset: 7, message: "found end of input"
        )
        let group = try files.outcomes("{\"r\": [{}]")
        expectError(
            group.last, .syntax, line: 1, column: 11,
            message: "expected ',' or '}' after the array \"r\", found end of input")
    }

    @Test func testMismatchedBracketIsASyntaxErrorInsideTheElement() throws {
        let outcomes = try files.outcomes("[{\"a\": [1}, {\"b\": 2}]")
        #expect(outcomes.count == 1)
        expectError(
            outcomes[0], .syntax, line: 1, column: 10, byteOffset: 9, keyPath: "[0]",
            message: "expected ',' or ']' after array element, found '}'")
    }

    @Test func testRepeatedKeyIsAStructureErrorAtItsSecondOccurrence() throws {
        let outcomes = try files.outcomes(
            "[{\"a\": 1, \"a\": 2}, {\"o\": {\"k\": 1,\n \"k\": 2}}, {\"b\": 1}]")
        #expect(outcomes.count == 3)
        expectError(
            outcomes[0], .structure, line: 1, column: 11, byteOffset: 10, keyPath: "[0].a",
            message: "the key \"a\" appears twice in one object (first at line 1, column 3)")
        expectError(outcomes[1], .structure, line: 2, column: 2, byteOffset: 35, keyPath: "[1].o.k")
        #expect(outcomes[2].record?["b"] == .integer(1))
        // Objects of many members look keys up in a set; the rule is the same.
        let keys = (0..<40).map { "\"k\($0)\": \($0)" }.joined(separator: ", ")
        let many = try files.outcomes("[{\(keys), \"k7\": 0}]")
        #expect(many.first?.error?.code == .structure)
        #expect(many.first?.error?.position.keyPath == "[0].k7")
    }

    @Test func testLoneSurrogateEscapesAreEncodingErrors() throws {
        let outcomes = try files.outcomes(
            #"[{"a": "\uD800"}, {"b": "x\uDC00"}, {"c": "\uD800\u0041"}, {"d": 1}]"#)
        #expect(outcomes.count == 4)
        expectError(
            outcomes[0], .encoding, line: 1, column: 9, byteOffset: 8, keyPath: "[0]",
            message: "unpaired UTF-16 surrogate")
        expectError(
            outcomes[1], .encoding, line: 1, column: 27, byteOffset: 26, keyPath: "[1]",
            message: "low surrogate without a high one")
        expectError(outcomes[2], .encoding, line: 1, column: 44, byteOffset: 43, keyPath: "[2]")
        #expect(outcomes[3].record?["d"] == .integer(1))
    }

    @Test func testInvalidUTF8IsAnEncodingErrorAtTheBadByte() throws {
        func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }
        let input: [UInt8] =
            bytes("[{\"a\": \"x") + [0xFF] + bytes("y\"},\n {\"b\": \"é") + [0xC0, 0xAF]
            + bytes("\"}, {\"c\": \"") + [0xED, 0xA0, 0x80] + bytes("\"}, {\"d\": 1}, {\"e\": 1 ")
            + [0xE9]
            + bytes("}]")
        let outcomes = try files.readAll(files.write(input))
        #expect(outcomes.count == 5)
        expectError(
            outcomes[0], .encoding, line: 1, column: 10, byteOffset: 9, keyPath: "[0]",
            message: "byte 0xFF")
        expectError(
            outcomes[1], .encoding, line: 2, column: 10, byteOffset: 25, keyPath: "[1]",
            message: "byte 0xC0")
        expectError(
            outcomes[2], .encoding, line: 2, column: 22, byteOffset: 38, keyPath: "[2]",
            message: "byte 0xED")
        #expect(outcomes[3].record?["d"] == .integer(1))
        expectError(
            outcomes[4], .encoding, line: 2, column: 45, byteOffset: 63, keyPath: "[4]",
            message: "byte 0xE9")
    }

    @Test func testRecordOverTheSizeLimitIsTooLargeAndSkipped() throws {
        var limits = ImportLimits()
        limits.maximumRecordBytes = 24
        let text = #"[{"a": "short"}, {"a": "a string much longer than the limit"}, {"b": 1}]"#
        for chunkSize in [1, 7, 1 << 20] {
            let outcomes = try files.readAll(
                files.write(text), limits: limits, chunkSize: chunkSize)
            #expect(outcomes.count == 3)
            #expect(outcomes[0].record?["a"] == .text("short"))
            expectError(
                outcomes[1], .tooLarge, line: 1, column: 18, byteOffset: 17, keyPath: "[1]",
                message: "larger than the limit of 24 bytes")
            #expect(outcomes[2].record?["b"] == .integer(1))
        }
    }

    @Test func testNestingOverTheDepthLimitIsTooLarge() throws {
        var limits = ImportLimits()
        limits.maximumDepth = 3
        let text = #"[{"a": {"b": [1]}}, {"a": {"b": [{"c": 1}]}}, {"z": 0}]"#
        let outcomes = try files.outcomes(text, limits: limits)
        #expect(outcomes.count == 3)
        #expect(outcomes[0].record != nil)
        expectError(
            outcomes[1], .tooLarge, line: 1, column: 34, byteOffset: 33, keyPath: "[1]",
            message: "nesting deeper than 3")
        #expect(outcomes[2].record?["z"] == .integer(0))
    }

    @Test func testStringAndValueCountLimitsAreTooLarge() throws {
        var limits = ImportLimits()
        limits.maximumFieldBytes = 4
        limits.maximumFieldCount = 3
        let text = #"[{"a": "four", "b": [1, 2, 3]}, {"a": "fiver"}, {"l": [1, 2, 3, 4]}]"#
        let outcomes = try files.outcomes(text, limits: limits)
        #expect(outcomes.count == 3)
        #expect(outcomes[0].record != nil)
        expectError(
            outcomes[1], .tooLarge, line: 1, column: 39, byteOffset: 38, keyPath: "[1].a",
            message: "a string of 5 bytes")
        expectError(
            outcomes[2], .tooLarge, line: 1, column: 55, byteOffset: 54, keyPath: "[2].l",
            message: "4 values in one array")
    }

    @Test func testDepthLimitIsCappedAtTheParsersOwn() throws {
        var limits = ImportLimits()
        limits.maximumDepth = .max
        // The record is level 1, so the 512th "[" (at offset 518) is level 513.
        let deep = String(repeating: "[", count: 600) + String(repeating: "]", count: 600)
        let outcomes = try files.outcomes("[{\"a\": \(deep)}, {}]", limits: limits)
        #expect(outcomes.count == 2)
        expectError(
            outcomes[0], .tooLarge, line: 1, column: 519, byteOffset: 518, keyPath: "[0]",
            message: "nesting deeper than 512")
        #expect(outcomes[1].record?.fields == [])
    }
}
