import Foundation
import StrataCore
import StrataSchema

/// The JSON text of Day One's files: values converted from what the
/// importer read, and written back with sorted keys and two-space
/// indentation, so the same diary always gives the same bytes.
enum DayOneJSON {
    /// An imported value as a JSON value (positions dropped).
    static func value(_ value: RecordValue) -> JSONValue {
        switch value {
        case .null: return .null
        case .text(let text): return .string(text)
        case .integer(let number): return .integer(number)
        case .unsignedInteger(let number), .uid(let number): return .real(Double(number))
        case .real(let number): return .real(number)
        case .boolean(let flag): return .bool(flag)
        case .date(let date):
            return .string(
                ISO8601Date.string(from: date.timeIntervalSinceReferenceDate) ?? "\(date)")
        case .data(let data): return .string(data.base64EncodedString())
        case .array(let fields), .set(let fields):
            return .array(fields.map { node(Self.value($0.value)) })
        case .dictionary(let fields):
            return .object(fields.map { member($0.key, Self.value($0.value)) })
        }
    }

    /// A value without a position.
    package static func node(_ value: JSONValue) -> JSONNode {
        JSONNode(value, line: 0, column: 0)
    }

    /// A member without a position.
    static func member(_ key: String, _ value: JSONValue) -> JSONMember {
        JSONMember(key: key, line: 0, column: 0, value: node(value))
    }

    /// A number as JSON: whole numbers without a fraction.
    static func number(_ value: Double) -> JSONValue {
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
    package static func text(_ value: JSONValue, indent: Int = 0) -> String {
        var writer = JSONWriter(style: style(indent: indent))
        write(value, to: &writer)
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    /// Writes `value` with `writer`, object keys sorted by their UTF-8 bytes.
    package static func write(_ value: JSONValue, to writer: inout JSONWriter) {
        switch value {
        case .null: writer.null()
        case .bool(let flag): writer.boolean(flag)
        case .integer(let number): writer.integer(number)
        case .real(let number): writer.real(number)
        case .string(let text): writer.string(text)
        case .array(let nodes):
            writer.openArray()
            for node in nodes { write(node.value, to: &writer) }
            writer.closeArray()
        case .object(let members):
            let sorted = members.sorted {
                Array($0.key.utf8).lexicographicallyPrecedes(Array($1.key.utf8))
            }
            writer.openObject()
            for member in sorted {
                writer.key(member.key)
                write(member.value.value, to: &writer)
            }
            writer.closeObject()
        }
    }
}
