import Foundation
import StrataCore
import StrataSchema

/// The JSON text of Day One's files: values converted from what the
/// importer read, and written back with sorted keys and two-space
/// indentation, so the same diary always gives the same bytes.
enum DayOneJSON {
    /// An imported value as JSON holds it, positions dropped: dates as ISO
    /// 8601 text, bytes as base64 text, integers beyond `Int64` as reals.
    static func value(_ value: RecordValue) -> RecordValue {
        switch value {
        case .null, .text, .integer, .real, .boolean: return value
        case .unsignedInteger(let number), .uid(let number): return .real(Double(number))
        case .date(let date):
            return .text(
                ISO8601Date.string(from: date.timeIntervalSinceReferenceDate) ?? "\(date)")
        case .data(let data): return .text(data.base64EncodedString())
        case .array(let fields), .set(let fields):
            return .array(values: fields.map { Self.value($0.value) })
        case .dictionary(let fields):
            return .dictionary(fields.map { RecordField(key: $0.key, value: Self.value($0.value)) })
        }
    }

    /// A number as JSON: whole numbers without a fraction.
    static func number(_ value: Double) -> RecordValue {
        if value == value.rounded(), abs(value) < 1e15 { return .integer(Int64(value)) }
        return .real(value)
    }

    // MARK: - Writing

    /// How Day One's files are laid out: two spaces per level, ` : ` between
    /// a key and its value, control characters other than line breaks and
    /// tabs as lowercase `\u00xx`.
    static func style(indent: Int) -> JSONWriter.Style {
        JSONWriter.Style(
            indent: 2, margin: indent, colon: Array(" : ".utf8), shortBackspaceAndFormFeed: false,
            uppercaseHex: false)
    }

    /// The text of `value`: object keys sorted by their UTF-8 bytes, nested
    /// values indented by two spaces per level from `indent`.
    package static func text(_ value: RecordValue, indent: Int = 0) -> String {
        var writer = JSONWriter(style: style(indent: indent))
        writer.value(value, sortingKeys: true)
        return String(decoding: writer.bytes, as: UTF8.self)
    }
}
