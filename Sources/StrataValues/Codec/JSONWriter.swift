import Foundation

/// Builds JSON text (RFC 8259) as UTF-8 bytes: the one JSON writer, used by
/// exports, bundles, Day One files, mapping expressions and schema files.
///
/// Strings escape only what §7 requires: `"`, `\` and the control
/// characters U+0000–U+001F; everything else is written as UTF-8. Reals use
/// Swift's shortest round-trip form; infinities and NaN, which JSON cannot
/// express, become `null`. Dates are ISO 8601 text (seconds since 2001 when
/// no text reads back exactly) and data is base64 text.
///
/// The writer keeps its buffer between records (``clear()``), so writing a
/// record allocates nothing once the buffer has grown.
///
/// ```swift
/// var json = JSONWriter()
/// json.openObject()
/// json.key("name")
/// json.string("Ada")
/// json.closeObject()  // {"name":"Ada"}
/// ```
package struct JSONWriter {
    /// How the text is laid out and escaped.
    package struct Style {
        /// Spaces per level, or nil for everything on one line.
        package var indent: Int?
        /// Spaces before the first level (with ``indent``).
        package var margin = 0
        /// What separates a key from its value.
        package var colon: [UInt8] = [UInt8(ascii: ":")]
        /// Whether backspace and form feed get `\b` and `\f` (else `\u00XX`).
        package var shortBackspaceAndFormFeed = true
        /// Whether `\u00XX` escapes use uppercase hexadecimal digits.
        package var uppercaseHex = true
        /// Whether an empty array or object (with ``indent``) holds a blank
        /// line, as Foundation's pretty printer writes it: `{⏎⏎}`.
        package var blankLineInEmptyContainers = false
        /// Whether ``value(_:sortingKeys:)`` writes whole reals as
        /// integers (``number(_:)``: `3`), else with a fraction (``real(_:)``:
        /// `3.0`).
        package var wholeRealsAsIntegers = false

        /// Everything on one line, no spaces: what exports and bundles write.
        package static let compact = Style(indent: nil)

        /// Two spaces per level, `" : "`, lowercase `\u00xx`, blank lines in
        /// empty containers, whole reals as integers: what Foundation's
        /// `JSONEncoder` writes pretty-printed, and `--json` writes.
        package static let pretty = Style(
            indent: 2, colon: Array(" : ".utf8), uppercaseHex: false,
            blankLineInEmptyContainers: true, wholeRealsAsIntegers: true)

        /// A layout; the defaults are JSON's usual escapes.
        package init(
            indent: Int?, margin: Int = 0, colon: [UInt8] = [UInt8(ascii: ":")],
            shortBackspaceAndFormFeed: Bool = true, uppercaseHex: Bool = true,
            blankLineInEmptyContainers: Bool = false, wholeRealsAsIntegers: Bool = false
        ) {
            self.indent = indent
            self.margin = margin
            self.colon = colon
            self.shortBackspaceAndFormFeed = shortBackspaceAndFormFeed
            self.uppercaseHex = uppercaseHex
            self.blankLineInEmptyContainers = blankLineInEmptyContainers
            self.wholeRealsAsIntegers = wholeRealsAsIntegers
        }
    }

    /// The text written so far.
    package private(set) var bytes: [UInt8] = []
    /// For each open array or object: whether it has a value already.
    private var needsComma: [Bool] = []
    package let style: Style

    package init(style: Style = .compact) {
        self.style = style
    }

    /// Forgets the text built so far (keeping its storage).
    package mutating func clear() {
        bytes.removeAll(keepingCapacity: true)
        needsComma.removeAll(keepingCapacity: true)
    }

    // MARK: - Structure

    /// `{`, leaving the object open.
    package mutating func openObject() {
        open(UInt8(ascii: "{"))
    }

    /// Closes the object opened last.
    package mutating func closeObject() {
        close(UInt8(ascii: "}"))
    }

    /// `[`, leaving the array open.
    package mutating func openArray() {
        open(UInt8(ascii: "["))
    }

    /// Closes the array opened last.
    package mutating func closeArray() {
        close(UInt8(ascii: "]"))
    }

    /// `"key":`, after a comma when the object has members already; the
    /// value written next belongs to it.
    package mutating func key(_ key: String) {
        separate()
        Self.appendString(key, to: &bytes, style: style)
        if style.colon.count == 1 { bytes.append(style.colon[0]) } else { bytes += style.colon }
        // The value follows the colon: no separator of its own.
        pendingValueOfKey = true
    }

    /// Set between a key and its value.
    private var pendingValueOfKey = false

    /// The comma and line break before a value, unless it follows its key.
    @inline(__always)
    private mutating func separate() {
        if pendingValueOfKey {
            pendingValueOfKey = false
            return
        }
        guard !needsComma.isEmpty else { return }
        if needsComma[needsComma.count - 1] {
            bytes.append(UInt8(ascii: ","))
        } else {
            needsComma[needsComma.count - 1] = true
        }
        if let indent = style.indent {
            bytes.append(UInt8(ascii: "\n"))
            appendSpaces(style.margin + indent * needsComma.count)
        }
    }

    private mutating func open(_ bracket: UInt8) {
        separate()
        bytes.append(bracket)
        needsComma.append(false)
    }

    private mutating func close(_ bracket: UInt8) {
        let hadValues = needsComma.removeLast()
        if let indent = style.indent, hadValues || style.blankLineInEmptyContainers {
            bytes.append(UInt8(ascii: "\n"))
            if !hadValues { bytes.append(UInt8(ascii: "\n")) }
            appendSpaces(style.margin + indent * needsComma.count)
        }
        bytes.append(bracket)
    }

    private mutating func appendSpaces(_ count: Int) {
        for _ in 0..<count { bytes.append(UInt8(ascii: " ")) }
    }

    // MARK: - Scalars

    /// `null`.
    package mutating func null() {
        separate()
        bytes += "null".utf8
    }

    /// `true` or `false`.
    package mutating func boolean(_ flag: Bool) {
        separate()
        bytes += (flag ? "true" : "false").utf8
    }

    /// A whole number.
    package mutating func integer(_ number: Int64) {
        separate()
        bytes += String(number).utf8
    }

    /// A whole number of `UInt64`'s range.
    package mutating func integer(_ number: UInt64) {
        separate()
        bytes += String(number).utf8
    }

    /// A real in its shortest round-trip form (`1.0`, `0.1`), or `null`
    /// when it is not finite.
    package mutating func real(_ number: Double) {
        separate()
        bytes += (number.isFinite ? "\(number)" : "null").utf8
    }

    /// A real the way a person writes it (``numberText(_:)``: `3`, `0.5`),
    /// or `null` when it is not finite.
    package mutating func number(_ value: Double) {
        separate()
        bytes += (value.isFinite ? Self.numberText(value) : "null").utf8
    }

    /// A string, escaped.
    package mutating func string(_ text: String) {
        separate()
        Self.appendString(text, to: &bytes, style: style)
    }

    /// A date (seconds since 2001) as quoted ISO 8601 text, or as the
    /// number of seconds when no text reads back as exactly that date.
    package mutating func date(_ seconds: Double) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        if ISO8601Date.append(seconds, to: &bytes) {
            bytes.append(UInt8(ascii: "\""))
        } else {
            bytes.removeLast()
            bytes += "\(seconds)".utf8
        }
    }

    /// Bytes as base64 text.
    package mutating func data(_ data: Data) {
        string(data.base64EncodedString())
    }

    // MARK: - Text and numbers

    /// Appends `text` as a JSON string with the escapes of RFC 8259 §7.
    /// Runs of bytes that need no escape are copied at once.
    package static func appendString(
        _ text: String, to bytes: inout [UInt8], style: Style = .compact
    ) {
        bytes.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { utf8 in
            var runStart = 0
            for index in utf8.indices {
                let byte = utf8[index]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
                else { continue }
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
                runStart = index + 1
                switch byte {
                case UInt8(ascii: "\""): bytes += #"\""#.utf8
                case UInt8(ascii: "\\"): bytes += #"\\"#.utf8
                case 0x0A: bytes += #"\n"#.utf8
                case 0x0D: bytes += #"\r"#.utf8
                case 0x09: bytes += #"\t"#.utf8
                case 0x08 where style.shortBackspaceAndFormFeed: bytes += #"\b"#.utf8
                case 0x0C where style.shortBackspaceAndFormFeed: bytes += #"\f"#.utf8
                default:
                    let digits = style.uppercaseHex ? upperHexDigits : lowerHexDigits
                    bytes += #"\u00"#.utf8
                    bytes.append(digits[Int(byte >> 4)])
                    bytes.append(digits[Int(byte & 0x0F)])
                }
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart...]))
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// `text` as a JSON string (quotes and escapes), for text built as
    /// strings.
    package static func quoted(_ text: String, style: Style = .compact) -> String {
        var bytes: [UInt8] = []
        appendString(text, to: &bytes, style: style)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A finite number the way a person writes it: whole numbers below
    /// 10^15 without a fraction (`3`, not `3.0`; they read back equal),
    /// others in their shortest round-trip form. Infinities and NaN are
    /// the caller's to refuse (their description is returned).
    package static func numberText(_ value: Double) -> String {
        if value == value.rounded(.towardZero), abs(value) < 1e15 {
            return String(Int64(value))
        }
        return value.description
    }

    private static let upperHexDigits = Array("0123456789ABCDEF".utf8)
    private static let lowerHexDigits = Array("0123456789abcdef".utf8)
}
