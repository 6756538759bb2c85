import Foundation
import Testing

@testable import Strata
@testable import StrataSchema

struct JSONReaderTests {
    @Test func testNodesAndKeysKnowTheirLineAndColumn() throws {
        let node = try JSONReader.parse("{\n  \"a\": [1, 2.5],\n  \"b\": \"x\"\n}")
        #expect(node.line == 1 && node.column == 1)
        guard case .dictionary(let members) = node.value else {
            Issue.record("expected an object")
            return
        }
        #expect(members.map(\.key) == ["a", "b"])
        #expect(members[0].keyLine == 2 && members[0].keyColumn == 3)
        #expect(members[0].line == 2 && members[0].column == 8)
        guard case .array(let elements) = members[0].value else {
            Issue.record("expected an array")
            return
        }
        #expect(elements.map(\.column) == [9, 12])
        #expect(members[1].line == 3 && members[1].column == 8)
    }

    @Test func testColumnsCountUnicodeScalarsNotBytes() throws {
        let node = try JSONReader.parse("{\"é😀\": 1}")
        #expect(node["é😀"]?.column == 8)
    }

    @Test func testFirstLineOffsetsLineNumbers() throws {
        var text = "\n  [true]"
        let node = try text.withUTF8 { bytes in try JSONReader.parse(bytes: bytes, firstLine: 41) }
        #expect(node.line == 42 && node.column == 3)
    }

    @Test func testFirstColumnOffsetsTheFirstLineOnly() throws {
        var text = "{\"a\": [1,\n 2], \"b\": x}"
        let result = text.withUTF8 { bytes in
            Result { () throws(JSONSyntaxError) in
                try JSONReader.parse(bytes: bytes, firstLine: 5, firstColumn: 30)
            }
        }
        #expect(
            throws: JSONSyntaxError(
                line: 6, column: 11,
                message:
                    "expected a value (object, array, string, number, true, false or null), found 'x'"
            )
        ) {
            try result.get()
        }
        var valid = "{\"a\": [1,\n 2]}"
        let node = try valid.withUTF8 { bytes in
            try JSONReader.parse(bytes: bytes, firstLine: 5, firstColumn: 30)
        }
        guard case .array(let elements) = node["a"]?.value else {
            Issue.record("expected an array")
            return
        }
        #expect(node.column == 30 && node["a"]?.column == 36)
        #expect(elements.map(\.column) == [37, 2])
    }

    @Test func testErrorKindsTellEncodingAndRangeFromSyntax() {
        let cases: [(String, JSONSyntaxError.Kind)] = [
            (#""\uD800""#, .encoding), (#""\uDC00""#, .encoding), ("1e400", .range),
            ("[1,]", .syntax),
        ]
        for (text, kind) in cases {
            #expect(throws: Error.self) { try JSONReader.parse(text) }
            do { _ = try JSONReader.parse(text) } catch { #expect(error.kind == kind, "\(text)") }
        }
    }

    @Test func testByteOrderMarkIsSkipped() throws {
        let node = try JSONReader.parse(Data([0xEF, 0xBB, 0xBF] + Array("7".utf8)))
        #expect(node.value == .integer(7))
        #expect(node.column == 1)
    }

    @Test func testEveryEscapeIsResolved() throws {
        let node = try JSONReader.parse(#""\"\\\/\b\f\n\r\t\u0041\u00e9""#)
        #expect(node.value == .text("\"\\/\u{08}\u{0C}\n\r\tAé"))
    }

    @Test func testSurrogatePairsBecomeOneScalarAndLoneHalvesAreErrors() throws {
        #expect(try JSONReader.parse(#""\uD83D\uDE00""#).value == .text("😀"))
        for text in [#""\uD83D""#, #""\uD83Dx""#, #""\uD83D\u0041""#, #""\uDE00""#] {
            do {
                _ = try JSONReader.parse(text)
                Issue.record("\(text) parsed without error")
            } catch {
                #expect(error.line == 1 && error.column == 2)
                #expect(error.message.contains("surrogate"))
            }
        }
    }

    @Test func testDuplicateKeysAreKeptInOrder() throws {
        let node = try JSONReader.parse(#"{"a": 1, "b": 2, "a": 3}"#)
        guard case .dictionary(let members) = node.value else {
            Issue.record("expected an object")
            return
        }
        #expect(members.map(\.key) == ["a", "b", "a"])
        #expect(members.map(\.value) == [.integer(1), .integer(2), .integer(3)])
        #expect(members[2].keyColumn == 18)
    }

    @Test func testIntegersAndRealsAreDistinguished() throws {
        let cases: [(String, RecordValue)] = [
            ("1", .integer(1)), ("-0", .integer(0)), ("1.0", .real(1)), ("1e2", .real(100)),
            ("-2.5E-1", .real(-0.25)), ("-9223372036854775808", .integer(.min)),
            ("9223372036854775807", .integer(.max)),
            ("9223372036854775808", .real(9_223_372_036_854_775_808)),
        ]
        for (text, expected) in cases {
            #expect(try JSONReader.parse(text).value == expected, "\(text)")
        }
        #expect(
            try JSONReader.parse("[true, false, null]").value
                == .array([
                    RecordField(
                        key: "0", value: .boolean(true),
                        position: SourcePosition(file: "", line: 1, column: 2, byteOffset: 1)),
                    RecordField(
                        key: "1", value: .boolean(false),
                        position: SourcePosition(file: "", line: 1, column: 8, byteOffset: 7)),
                    RecordField(
                        key: "2", value: .null,
                        position: SourcePosition(file: "", line: 1, column: 15, byteOffset: 14)),
                ]))
    }

    @Test func testNestingIsLimitedTo512Levels() throws {
        let deep = String(repeating: "[", count: 512) + String(repeating: "]", count: 512)
        #expect(throws: Never.self) { try JSONReader.parse(deep) }
        let tooDeep = String(repeating: "[", count: 513) + String(repeating: "]", count: 513)
        do {
            _ = try JSONReader.parse(tooDeep)
            Issue.record("expected a depth error")
        } catch {
            #expect(error.line == 1 && error.column == 513)
            #expect(error.message.contains("512"))
        }
    }

    @Test func testEverySyntaxErrorHasLineColumnAndExpectation() {
        let cases: [(String, Int, Int, String)] = [
            ("", 1, 1, "expected a value, found end of input"),
            ("@", 1, 1, "expected a value (object, array, string, number, true, false or null)"),
            ("{\"a\" 1}", 1, 6, "expected ':' after object key, found '1'"),
            ("{\"a\": 1 \"b\": 2}", 1, 9, "expected ',' or '}' after object member, found '\"'"),
            ("{\"a\": 1", 1, 8, "expected ',' or '}' after object member, found end of input"),
            ("{1: 2}", 1, 2, "expected a string key or '}', found '1'"),
            ("{\"a\": 1,}", 1, 9, "expected a string key after ',', found '}'"),
            ("[1 2]", 1, 4, "expected ',' or ']' after array element, found '2'"),
            ("[1,]", 1, 4, "expected a value after ',', found ']'"),
            ("\"abc", 1, 1, "unterminated string"),
            ("\"a\tb\"", 1, 3, "expected '\"' before control character in string"),
            ("\"\\x\"", 1, 3, "expected one of"),
            ("\"\\u12G4\"", 1, 6, "expected 4 hexadecimal digits after '\\u', found 'G'"),
            ("01", 1, 2, "leading zeros are not allowed"),
            ("-a", 1, 2, "expected a digit after '-', found 'a'"),
            ("1.", 1, 3, "expected a digit after '.', found end of input"),
            ("1e+", 1, 4, "expected a digit in the exponent"),
            ("1e999", 1, 1, "number out of range"),
            ("tru", 1, 1, "expected 'true'"),
            ("nul", 1, 1, "expected 'null'"),
            ("[1] x", 1, 5, "expected end of input after the top-level value, found 'x'"),
            ("{\n  \"a\": ?\n}", 2, 8, "expected a value"),
            ("[1,\r\n 2 3]", 2, 4, "expected ',' or ']' after array element"),
            ("[ü]", 1, 2, "found 'ü'"),
        ]
        for (text, line, column, message) in cases {
            do {
                _ = try JSONReader.parse(text)
                Issue.record("\(text.debugDescription) parsed without error")
            } catch {
                #expect(error.line == line && error.column == column, "\(text.debugDescription)")
                #expect(error.message.contains(message), "\(text.debugDescription): \(error)")
            }
        }
    }

    @Test func testInvalidUTF8InStringIsAnError() {
        do {
            _ = try JSONReader.parse(Data([0x5B, 0x22, 0xFF, 0x22, 0x5D]))
            Issue.record("expected an error")
        } catch {
            #expect(error.line == 1 && error.column == 2)
            #expect(error.message == "string is not valid UTF-8")
        }
    }

    @Test func testSyntaxErrorDescriptionIsLineColonColumn() {
        let error = JSONSyntaxError(line: 3, column: 7, message: "expected ':' after object key")
        #expect(error.description == "3:7: expected ':' after object key")
    }
}
