import Foundation
import StrataValues

/// Reads JSON text (RFC 8259) into located ``RecordValue`` trees: the root
/// is a ``RecordField`` (key `""`) and every value a field with its position
/// (line, column and byte offset in the text), every object member its key's
/// position too (``RecordField/keyPosition``).
///
/// Unlike `JSONSerialization`, the reader reports line and column for every
/// value and every error, keeps object keys in order (duplicates included),
/// and tells integers from reals. It works on UTF-8 bytes without building
/// `Character`s, so it is cheap enough for JSON-lines files of many rows.
///
/// ```swift
/// let node = try JSONReader.parse(#"{"version": 2}"#)
/// let version = node["version"]?.value  // .integer(2), at line 1, column 13
/// ```
public enum JSONReader {
    /// The deepest nesting of arrays and objects accepted; deeper text is
    /// rejected rather than risking the stack.
    public static let maximumDepth = 512

    /// Parses one JSON value from UTF-8 `data`, skipping a leading byte order mark.
    ///
    /// - Throws: ``JSONSyntaxError`` at the first character that is not JSON.
    public static func parse(_ data: Data) throws(JSONSyntaxError) -> RecordField {
        let result = data.withUnsafeBytes { raw in
            Result { () throws(JSONSyntaxError) in
                try parse(bytes: raw.assumingMemoryBound(to: UInt8.self))
            }
        }
        return try result.get()
    }

    /// Parses one JSON value from `text`.
    ///
    /// - Throws: ``JSONSyntaxError`` at the first character that is not JSON.
    public static func parse(_ text: String) throws(JSONSyntaxError) -> RecordField {
        var text = text
        let result = text.withUTF8 { bytes in
            Result { () throws(JSONSyntaxError) in try parse(bytes: bytes) }
        }
        return try result.get()
    }

    /// Parses one JSON value from UTF-8 `bytes`, numbering lines from
    /// `firstLine` and the columns of the first line from `firstColumn`
    /// (useful for one line of a JSON-lines file, or one element cut out of
    /// a larger document).
    ///
    /// - Throws: ``JSONSyntaxError`` at the first character that is not JSON.
    public static func parse(
        bytes: UnsafeBufferPointer<UInt8>, firstLine: Int = 1, firstColumn: Int = 1
    ) throws(JSONSyntaxError) -> RecordField {
        var parser = JSONParser(bytes: bytes, line: firstLine, column: firstColumn)
        return try parser.parseDocument()
    }
}

/// The recursive-descent parser behind ``JSONReader``; one per document.
package struct JSONParser {
    let bytes: UnsafeBufferPointer<UInt8>
    package var index = 0
    var line: Int
    var lineStart = 0
    var depth = 0
    // Columns are counted in scalars from the last computed one, so that a long
    // line with many values costs linear time, not quadratic.
    var columnOffset = 0
    var columnValue = 1
    // The first line may start mid-line in a larger text (an element cut out
    // of a document), so its columns count from the caller's column.
    let firstLineStart: Int
    let firstColumn: Int

    package init(bytes: UnsafeBufferPointer<UInt8>, line: Int, column: Int = 1) {
        self.bytes = bytes
        self.line = line
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF {
            index = 3
            lineStart = 3
            columnOffset = 3
        }
        firstLineStart = lineStart
        firstColumn = column
        columnValue = column
    }

    mutating func parseDocument() throws(JSONSyntaxError) -> RecordField {
        let node = try parseValue()
        skipWhitespace()
        if index < bytes.count {
            throw error("expected end of input after the top-level value, found \(found())")
        }
        return node
    }

    // MARK: - Positions and errors

    mutating func column(at offset: Int) -> Int {
        if columnOffset < lineStart || columnOffset > offset {
            columnOffset = lineStart
            columnValue = lineStart == firstLineStart ? firstColumn : 1
        }
        var column = columnValue
        var cursor = columnOffset
        while cursor < offset {
            // Continuation bytes (10xxxxxx) do not start a scalar.
            if bytes[cursor] & 0xC0 != 0x80 { column += 1 }
            cursor += 1
        }
        columnOffset = offset
        columnValue = column
        return column
    }

    mutating func error(
        _ message: String, at offset: Int? = nil, kind: JSONSyntaxError.Kind = .syntax
    ) -> JSONSyntaxError {
        JSONSyntaxError(
            line: line, column: column(at: offset ?? index), message: message, kind: kind)
    }

    /// Describes the byte at the cursor for a message: `'x'`, a non-ASCII
    /// character, or `end of input`.
    func found() -> String {
        guard index < bytes.count else { return "end of input" }
        let byte = bytes[index]
        if byte >= 0x20 && byte < 0x7F { return "'\(Character(UnicodeScalar(byte)))'" }
        if byte < 0x80 { return "control character U+\(hex(UInt32(byte)))" }
        let end = min(index + 4, bytes.count)
        for length in stride(from: end - index, through: 2, by: -1) {
            let slice = UnsafeBufferPointer(rebasing: bytes[index..<(index + length)])
            if let text = String(validating: slice, as: UTF8.self), text.count == 1 {
                return "'\(text)'"
            }
        }
        return "byte 0x\(hex(UInt32(byte)))"
    }

    func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09:
                index += 1
            case 0x0A:
                index += 1
                line += 1
                lineStart = index
            case 0x0D:
                index += 1
                if index < bytes.count && bytes[index] == 0x0A { index += 1 }
                line += 1
                lineStart = index
            default:
                return
            }
        }
    }

    // MARK: - Values

    package mutating func parseValue(key: String = "") throws(JSONSyntaxError) -> RecordField {
        skipWhitespace()
        let position = SourcePosition(
            file: "", line: line, column: column(at: index), byteOffset: Int64(index))
        guard index < bytes.count else {
            throw error("expected a value, found end of input")
        }
        let value: RecordValue
        switch bytes[index] {
        case UInt8(ascii: "{"): value = try parseObject()
        case UInt8(ascii: "["): value = try parseArray()
        case UInt8(ascii: "\""): value = .text(try parseString())
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): value = try parseNumber()
        case UInt8(ascii: "t"): value = try parseLiteral("true", .boolean(true))
        case UInt8(ascii: "f"): value = try parseLiteral("false", .boolean(false))
        case UInt8(ascii: "n"): value = try parseLiteral("null", .null)
        default:
            throw error(
                "expected a value (object, array, string, number, true, false or null), "
                    + "found \(found())")
        }
        return RecordField(key: key, value: value, position: position)
    }

    mutating func parseLiteral(
        _ word: StaticString, _ value: RecordValue
    ) throws(JSONSyntaxError) -> RecordValue {
        let start = index
        let length = word.utf8CodeUnitCount
        for offset in 0..<length {
            let expected = word.utf8Start[offset]
            guard start + offset < bytes.count, bytes[start + offset] == expected else {
                throw error("expected '\(word)'", at: start)
            }
        }
        index += length
        return value
    }

    mutating func enter() throws(JSONSyntaxError) {
        depth += 1
        if depth > JSONReader.maximumDepth {
            throw error(
                "nesting deeper than \(JSONReader.maximumDepth) arrays and objects", kind: .depth)
        }
    }

    mutating func parseArray() throws(JSONSyntaxError) -> RecordValue {
        try enter()
        index += 1
        var elements: [RecordField] = []
        skipWhitespace()
        if index < bytes.count && bytes[index] == UInt8(ascii: "]") {
            index += 1
            depth -= 1
            return .array(elements)
        }
        while true {
            skipWhitespace()
            if !elements.isEmpty, index < bytes.count, bytes[index] == UInt8(ascii: "]") {
                throw error("expected a value after ',', found ']'")
            }
            elements.append(try parseValue(key: String(elements.count)))
            skipWhitespace()
            guard index < bytes.count else {
                throw error("expected ',' or ']' after array element, found end of input")
            }
            switch bytes[index] {
            case UInt8(ascii: ","):
                index += 1
            case UInt8(ascii: "]"):
                index += 1
                depth -= 1
                return .array(elements)
            default:
                throw error("expected ',' or ']' after array element, found \(found())")
            }
        }
    }

    mutating func parseObject() throws(JSONSyntaxError) -> RecordValue {
        try enter()
        index += 1
        var members: [RecordField] = []
        skipWhitespace()
        if index < bytes.count && bytes[index] == UInt8(ascii: "}") {
            index += 1
            depth -= 1
            return .dictionary(members)
        }
        // Records have a handful of members: one allocation instead of four.
        members.reserveCapacity(8)
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                let expected = members.isEmpty ? "a string key or '}'" : "a string key after ','"
                throw error("expected \(expected), found \(found())")
            }
            let keyPosition = SourcePosition(
                file: "", line: line, column: column(at: index), byteOffset: Int64(index))
            let key = try parseString()
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
                throw error("expected ':' after object key, found \(found())")
            }
            index += 1
            var member = try parseValue(key: key)
            member.keyPosition = keyPosition
            members.append(member)
            skipWhitespace()
            guard index < bytes.count else {
                throw error("expected ',' or '}' after object member, found end of input")
            }
            switch bytes[index] {
            case UInt8(ascii: ","):
                index += 1
            case UInt8(ascii: "}"):
                index += 1
                depth -= 1
                return .dictionary(members)
            default:
                throw error("expected ',' or '}' after object member, found \(found())")
            }
        }
    }
}
