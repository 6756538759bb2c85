import Foundation

/// Builds JSON text (RFC 8259) from import values, on one line.
///
/// Strings escape only what §7 requires: `"`, `\` and the control
/// characters U+0000–U+001F (as `\b \f \n \r \t` or `\u00XX`); everything
/// else is written as UTF-8. Reals use Swift's shortest round-trip form;
/// infinities and NaN, which JSON cannot express, become `null`. Dates are
/// ISO 8601 text and data is base64 text, as the importer reads them back.
struct JSONTextEncoder {
    private(set) var bytes: [UInt8] = []
    private var needsComma: [Bool] = []

    /// `{"strata_error":"<reason>"`, leaving the object open.
    mutating func openObject(withReason reason: String) {
        bytes.append(UInt8(ascii: "{"))
        needsComma.append(false)
        member(JSONRecordWriter.errorKey, .text(reason))
    }

    /// `{`, leaving the object open.
    mutating func openObject() {
        bytes.append(UInt8(ascii: "{"))
        needsComma.append(false)
    }

    /// Forgets the text built so far (keeping its storage).
    mutating func clear() {
        bytes.removeAll(keepingCapacity: true)
        needsComma.removeAll(keepingCapacity: true)
    }

    /// Closes the object opened last.
    mutating func closeObject() {
        bytes.append(UInt8(ascii: "}"))
        needsComma.removeLast()
    }

    /// `"key":value`, after a comma when the object has members already.
    mutating func member(_ key: String, _ value: ImportValue) {
        separate()
        string(key)
        bytes.append(UInt8(ascii: ":"))
        self.value(value)
    }

    private mutating func separate() {
        if needsComma.last == true { bytes.append(UInt8(ascii: ",")) }
        if !needsComma.isEmpty { needsComma[needsComma.count - 1] = true }
    }

    mutating func value(_ value: ImportValue) {
        switch value {
        case .null: append("null")
        case .text(let text): string(text)
        case .integer(let number): append(String(number))
        case .unsignedInteger(let number): append(String(number))
        case .real(let number): append(number.isFinite ? "\(number)" : "null")
        case .boolean(let flag): append(flag ? "true" : "false")
        case .date(let date):
            let seconds = date.timeIntervalSinceReferenceDate
            bytes.append(UInt8(ascii: "\""))
            if ISO8601Date.append(seconds, to: &bytes) {
                bytes.append(UInt8(ascii: "\""))
            } else {
                bytes.removeLast()
                append("\(seconds)")
            }
        case .data(let data): string(data.base64EncodedString())
        case .array(let elements):
            bytes.append(UInt8(ascii: "["))
            needsComma.append(false)
            for element in elements {
                separate()
                self.value(element.value)
            }
            needsComma.removeLast()
            bytes.append(UInt8(ascii: "]"))
        case .dictionary(let members):
            bytes.append(UInt8(ascii: "{"))
            needsComma.append(false)
            for member in members { self.member(member.key, member.value) }
            closeObject()
        }
    }

    private mutating func append(_ text: String) {
        bytes += text.utf8
    }

    /// `text` as a JSON string with the escapes of RFC 8259 §7. Runs of
    /// bytes that need no escape are copied at once.
    mutating func string(_ text: String) {
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
                case UInt8(ascii: "\""): append("\\\"")
                case UInt8(ascii: "\\"): append("\\\\")
                case 0x08: append("\\b")
                case 0x0C: append("\\f")
                case 0x0A: append("\\n")
                case 0x0D: append("\\r")
                case 0x09: append("\\t")
                default:
                    append("\\u00")
                    bytes.append(Self.hexDigits[Int(byte >> 4)])
                    bytes.append(Self.hexDigits[Int(byte & 0x0F)])
                }
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart...]))
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private static let hexDigits = Array("0123456789ABCDEF".utf8)
}
