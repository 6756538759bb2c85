import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A `Key: Value` line at the top of a txt block or file.
///
/// A line is a header when, after optional leading spaces or tabs, it has a
/// plausible field name — starting with a letter or digit, then letters,
/// digits, spaces, `_`, `-` and `.` (a key path such as `species.name`, as
/// export writes a related value), at most 64 characters — followed by `:` and
/// then a space, a tab or the end of the line. So `Date: 2024-05-01` and
/// `Tags:` are headers, while `http://example.org`, `- item: x`, `Note:x` and
/// `10:30 meeting` are not. The key is trimmed of spaces; the value is what
/// follows the colon, trimmed of spaces and tabs on both sides.
struct TextHeaderLine {
    /// The key's bytes in the line.
    var key: Range<Int>
    /// The value's bytes in the line (empty after `Key:`).
    var value: Range<Int>
    /// Where the line's content ends (at its CR or LF).
    var lineEnd: Int

    /// The longest key, in characters.
    static let maximumKeyLength = 64

    /// The header on the line at the start of `text`, or nil when that line
    /// is not a header line.
    ///
    /// The line ends at the first CR or LF of `text` (or its end), so `text`
    /// may run on into the lines after it: a body line is rejected after at
    /// most 64 characters, without being scanned to its end.
    static func parse(_ text: UnsafeBufferPointer<UInt8>) -> TextHeaderLine? {
        guard let base = text.baseAddress else { return nil }
        let count = text.count
        var index = 0
        while index < count, isSpace(text[index]) { index += 1 }
        let keyStart = index
        guard index < count, isKeyStart(text, index) else { return nil }
        // The colon must come within the longest key: look for it first, so
        // that a body line of words (all key characters) costs one memchr.
        let window = min(count - keyStart, maximumKeyLength * 4 + 1)
        guard let colon = memchr(base + keyStart, Int32(UInt8(ascii: ":")), window) else {
            return nil
        }
        let colonIndex = UnsafeRawPointer(colon) - UnsafeRawPointer(base)
        var characters = 0
        var keyEnd = keyStart
        while index < colonIndex {
            let byte = text[index]
            if byte < 0x80 {
                guard isKeyByte(byte) else { return nil }  // CR and LF too.
                index += 1
                if byte != 0x20 { keyEnd = index }
            } else {
                guard let length = letterLength(text, index) else { return nil }
                index += length
                keyEnd = index
            }
            characters += 1
            if characters > maximumKeyLength { return nil }
        }
        guard index == colonIndex else { return nil }
        index += 1
        var lineEnd = index
        while lineEnd < count, text[lineEnd] != 0x0A, text[lineEnd] != 0x0D { lineEnd += 1 }
        if index < lineEnd {
            guard isSpace(text[index]) else { return nil }
            while index < lineEnd, isSpace(text[index]) { index += 1 }
        }
        var valueEnd = lineEnd
        while valueEnd > index, isSpace(text[valueEnd - 1]) { valueEnd -= 1 }
        return TextHeaderLine(key: keyStart..<keyEnd, value: index..<valueEnd, lineEnd: lineEnd)
    }

    /// Whether `line` is empty or only spaces and tabs: a blank line.
    static func isBlank(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        for byte in line where !isSpace(byte) { return false }
        return true
    }

    /// A space or a tab.
    static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }

    private static func isAlphanumeric(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        default:
            return false
        }
    }

    /// An ASCII byte that may be in a key: a letter, digit, space, `_`, `-` or `.`.
    private static func isKeyByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), 0x20, 0x5F, 0x2D, 0x2E:
            return true
        default:
            return false
        }
    }

    private static func isKeyStart(_ line: UnsafeBufferPointer<UInt8>, _ index: Int) -> Bool {
        let byte = line[index]
        return byte < 0x80 ? isAlphanumeric(byte) : letterLength(line, index) != nil
    }

    /// The length of the UTF-8 sequence at `index` when it encodes a letter,
    /// a digit or a combining mark (`Título`, `Größe`), else nil. The bytes
    /// are already known to be valid UTF-8.
    private static func letterLength(_ line: UnsafeBufferPointer<UInt8>, _ index: Int) -> Int? {
        let lead = line[index]
        let length = lead >= 0xF0 ? 4 : (lead >= 0xE0 ? 3 : 2)
        guard index + length <= line.count else { return nil }
        var value = UInt32(lead) & (length == 2 ? 0x1F : (length == 3 ? 0x0F : 0x07))
        for offset in 1..<length { value = value << 6 | UInt32(line[index + offset] & 0x3F) }
        guard let scalar = Unicode.Scalar(value) else { return nil }
        let properties = scalar.properties
        switch properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
            .decimalNumber, .nonspacingMark, .spacingMark:
            return length
        default:
            return nil
        }
    }
}
