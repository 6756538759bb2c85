import Foundation

/// The JSON text of Day One's files: values converted from what the
/// importer read, and written back with sorted keys and two-space
/// indentation, so the same diary always gives the same bytes.
enum DayOneJSON {
    /// An imported value as a JSON value (positions dropped).
    static func value(_ value: ImportValue) -> JSONValue {
        switch value {
        case .null: return .null
        case .text(let text): return .string(text)
        case .integer(let number): return .integer(number)
        case .unsignedInteger(let number): return .real(Double(number))
        case .real(let number): return .real(number)
        case .boolean(let flag): return .bool(flag)
        case .date(let date):
            return .string(
                ISO8601Date.string(from: date.timeIntervalSinceReferenceDate) ?? "\(date)")
        case .data(let data): return .string(data.base64EncodedString())
        case .array(let fields): return .array(fields.map { node(Self.value($0.value)) })
        case .dictionary(let fields):
            return .object(fields.map { member($0.key, Self.value($0.value)) })
        }
    }

    /// A value without a position.
    static func node(_ value: JSONValue) -> JSONNode {
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

    /// The text of `value`: object keys sorted by their UTF-8 bytes, nested
    /// values indented by two spaces per level from `indent`.
    static func text(_ value: JSONValue, indent: Int = 0) -> String {
        var output = ""
        write(value, indent: indent, to: &output)
        return output
    }

    /// Appends the text of `value` to `output`.
    static func write(_ value: JSONValue, indent: Int, to output: inout String) {
        switch value {
        case .null: output += "null"
        case .bool(let flag): output += flag ? "true" : "false"
        case .integer(let number): output += String(number)
        case .real(let number):
            output += number.isFinite ? "\(number)" : "null"
        case .string(let text): writeString(text, to: &output)
        case .array(let nodes):
            guard !nodes.isEmpty else {
                output += "[]"
                return
            }
            output += "[\n"
            for (index, node) in nodes.enumerated() {
                output += String(repeating: " ", count: indent + 2)
                write(node.value, indent: indent + 2, to: &output)
                output += index == nodes.count - 1 ? "\n" : ",\n"
            }
            output += String(repeating: " ", count: indent) + "]"
        case .object(let members):
            guard !members.isEmpty else {
                output += "{}"
                return
            }
            let sorted = members.sorted {
                Array($0.key.utf8).lexicographicallyPrecedes(Array($1.key.utf8))
            }
            output += "{\n"
            for (index, member) in sorted.enumerated() {
                output += String(repeating: " ", count: indent + 2)
                writeString(member.key, to: &output)
                output += " : "
                write(member.value.value, indent: indent + 2, to: &output)
                output += index == sorted.count - 1 ? "\n" : ",\n"
            }
            output += String(repeating: " ", count: indent) + "}"
        }
    }

    /// Appends `text` as a JSON string: quotes, backslashes and control
    /// characters escaped, everything else as it is (UTF-8).
    static func writeString(_ text: String, to output: inout String) {
        output += "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    output.unicodeScalars.append(scalar)
                }
            }
        }
        output += "\""
    }
}
