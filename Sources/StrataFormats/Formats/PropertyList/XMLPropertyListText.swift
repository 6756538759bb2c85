import Foundation
import StrataCore

/// Builds the text of an XML property list (Apple's plist DTD) from import
/// values, indented with tabs as Apple writes it: the rejects writer's and
/// the exporter's one way of writing plist values.
///
/// Dates are `<date>` in whole seconds, as Apple writes and reads them; a
/// date with a fraction of a second (which `<date>` cannot hold for
/// Apple's and Foundation's readers) is a `<string>` with its full ISO 8601
/// text, which the importer reads back as the same date. A ``RecordValue/null``
/// has no plist form and is left out, in dicts and arrays.
///
/// Text is escaped (`&`, `<`, `>`, and carriage returns as `&#13;` so that
/// they survive XML's line-end normalization). Characters that XML 1.0 does
/// not allow at all (control characters other than tab, line feed and
/// carriage return, U+FFFE, U+FFFF) are replaced by U+FFFD.
struct XMLPropertyListText {
    /// The text built so far.
    var bytes: [UInt8] = []

    /// Everything before the root element.
    static let header = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" \
        "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">

        """

    /// Whether `text` holds a character XML 1.0 does not allow (which
    /// ``appendEscaped(_:)`` replaces).
    static func hasForbiddenCharacter(_ text: String) -> Bool {
        text.unicodeScalars.contains { scalar in
            switch scalar.value {
            case 0x09, 0x0A, 0x0D: false
            case 0x00..<0x20, 0xFFFE, 0xFFFF: true
            default: false
            }
        }
    }

    package mutating func append(_ text: String) {
        bytes.append(contentsOf: text.utf8)
    }

    mutating func appendIndent(_ count: Int) {
        bytes.append(contentsOf: repeatElement(0x09, count: count))
    }

    /// A `<dict>` of `fields` at `indent`, null fields left out.
    mutating func appendDictionary(_ fields: [RecordField], indent: Int) {
        let hasEntries = fields.contains { $0.value != .null }
        appendIndent(indent)
        guard hasEntries else {
            append("<dict/>\n")
            return
        }
        append("<dict>\n")
        for field in fields where field.value != .null {
            appendIndent(indent + 1)
            append("<key>")
            appendEscaped(field.key)
            append("</key>\n")
            appendValue(field.value, indent: indent + 1)
        }
        appendIndent(indent)
        append("</dict>\n")
    }

    /// One value on its own line(s) at `indent`.
    mutating func appendValue(_ value: RecordValue, indent: Int) {
        switch value {
        case .null:
            return
        case .dictionary(let fields):
            appendDictionary(fields, indent: indent)
            return
        case .array(let elements), .set(let elements):
            appendIndent(indent)
            let present = elements.filter { $0.value != .null }
            guard !present.isEmpty else {
                append("<array/>\n")
                return
            }
            append("<array>\n")
            for element in present { appendValue(element.value, indent: indent + 1) }
            appendIndent(indent)
            append("</array>\n")
            return
        default:
            break
        }
        appendIndent(indent)
        switch value {
        case .text(let text):
            append("<string>")
            appendEscaped(text)
            append("</string>")
        case .integer(let number):
            append("<integer>\(number)</integer>")
        case .unsignedInteger(let number), .uid(let number):
            append("<integer>\(number)</integer>")
        case .real(let number):
            append("<real>\(PropertyListScalar.text(of: number))</real>")
        case .boolean(let flag):
            append(flag ? "<true/>" : "<false/>")
        case .date(let date):
            let seconds = date.timeIntervalSinceReferenceDate
            if seconds.rounded(.down) != seconds, let text = ISO8601Date.string(from: seconds) {
                append("<string>\(text)</string>")
            } else {
                append("<date>\(PropertyListScalar.text(of: date))</date>")
            }
        case .data(let data):
            append("<data>\(data.base64EncodedString())</data>")
        case .null, .array, .set, .dictionary:
            break
        }
        append("\n")
    }

    /// Appends `text` escaped for XML character data.
    mutating func appendEscaped(_ text: String) {
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x26: append("&amp;")
            case 0x3C: append("&lt;")
            case 0x3E: append("&gt;")
            case 0x0D: append("&#13;")
            case 0x09, 0x0A: bytes.append(UInt8(scalar.value))
            case 0x00..<0x20, 0xFFFE, 0xFFFF: append("\u{FFFD}")
            case 0x20..<0x80: bytes.append(UInt8(scalar.value))
            default: UTF8.encode(scalar) { bytes.append($0) }
            }
        }
    }
}
