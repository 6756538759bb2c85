import Foundation
import Strata

/// One fetched object as the query command prints it: its id and the value
/// of each attribute.
struct QueryRow {
    var id: String
    var values: [AttributeValue?]

    init(_ object: ManagedObject, attributes: [Attribute]) throws {
        id = object.objectID.description
        values = try attributes.map { try object.value(forKey: $0.name) }
    }
}

/// The table, JSON and CSV forms of query results.
enum QueryOutput {
    static func render(_ rows: [QueryRow], attributes: [String], as format: QueryCommand.Format)
        -> String
    {
        let header = ["id"] + attributes
        switch format {
        case .table:
            guard !rows.isEmpty else { return "" }
            return TextTable.render([header] + rows.map { [$0.id] + $0.values.map(text) })
        case .csv:
            return ([header] + rows.map { [$0.id] + $0.values.map(text) })
                .map { $0.map(csvField).joined(separator: ",") }
                .joined(separator: "\n")
        case .json:
            let objects = rows.map { row in
                var object: [String: JSONCell] = ["id": .string(row.id)]
                for (name, value) in zip(attributes, row.values) { object[name] = json(value) }
                return object
            }
            return (try? JSONOutput.encode(objects)) ?? "[]"
        }
    }

    /// A value as text: dates in ISO-8601 (UTC), bytes as a count, nil empty.
    static func text(_ value: AttributeValue?) -> String {
        guard let value else { return "" }
        switch value {
        case .integer(let number): return String(number)
        case .real(let number): return String(number)
        case .string(let text): return text
        case .boolean(let flag): return flag ? "true" : "false"
        case .date(let seconds): return isoDate(seconds)
        case .data(let bytes): return "\(bytes.count) bytes"
        case .uuid(let uuid): return uuid.uuidString
        }
    }

    private static func json(_ value: AttributeValue?) -> JSONCell {
        guard let value else { return .null }
        switch value {
        case .integer(let number): return .integer(number)
        case .real(let number): return .real(number)
        case .boolean(let flag): return .boolean(flag)
        case .data(let bytes): return .string(bytes.base64EncodedString())
        default: return .string(text(value))
        }
    }

    private static func isoDate(_ seconds: Double) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = TimeZone(identifier: "UTC")
        if seconds.rounded(.down) != seconds {
            formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        }
        return formatter.string(from: Date(timeIntervalSinceReferenceDate: seconds))
    }

    /// RFC 4180: quoted when it holds a comma, quote or line break.
    private static func csvField(_ field: String) -> String {
        guard field.contains(where: { $0 == "," || $0 == "\"" || $0.isNewline }) else {
            return field
        }
        return "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}

/// A JSON value of query output.
enum JSONCell: Encodable {
    case null
    case integer(Int64)
    case real(Double)
    case boolean(Bool)
    case string(String)

    func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .integer(let number): try container.encode(number)
        case .real(let number): try container.encode(number)
        case .boolean(let flag): try container.encode(flag)
        case .string(let text): try container.encode(text)
        }
    }
}
