import Foundation
import Strata

/// One column of query output: an attribute, a to-one (the destination's
/// id), a to-many (its ids), or a key path through to-ones (`sender.name`).
struct QueryField {
    /// The column's name: the key path as given.
    var name: String
    /// The to-one relationships crossed before the last key.
    var path: [String]
    /// The last key.
    var key: String
    /// What the last key is.
    var kind: Kind

    enum Kind { case attribute, toOne, toMany }

    /// Every stored attribute and relationship of `entity`, attributes first.
    static func all(of entity: String, in model: Model) -> [QueryField] {
        model.allAttributes(of: entity).filter { !$0.isTransient }.map {
            QueryField(name: $0.name, path: [], key: $0.name, kind: .attribute)
        }
            + model.allRelationships(of: entity).filter { !$0.isTransient }.map {
                QueryField(
                    name: $0.name, path: [], key: $0.name, kind: $0.isToMany ? .toMany : .toOne)
            }
    }

    /// The field `text` names from `entity`: a key path whose keys before
    /// the last are to-one relationships.
    ///
    /// - Throws: ``CommandFailure`` naming the key and the entity that lacks it.
    static func parse(_ text: String, entity: String, in model: Model) throws -> QueryField {
        let keys = text.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        var current = entity
        for (index, key) in keys.enumerated() {
            let isLast = index == keys.count - 1
            if let relationship = model.allRelationships(of: current).first(where: {
                $0.name == key && !$0.isTransient
            }) {
                if isLast {
                    return QueryField(
                        name: text, path: Array(keys.dropLast()), key: key,
                        kind: relationship.isToMany ? .toMany : .toOne)
                }
                guard !relationship.isToMany else {
                    throw CommandFailure(
                        message: "--fields '\(text)': \(current).\(key) is to-many; a field "
                            + "crosses to-one relationships only")
                }
                current = relationship.destination
            } else if isLast,
                model.allAttributes(of: current).contains(where: {
                    $0.name == key && !$0.isTransient
                })
            {
                return QueryField(
                    name: text, path: Array(keys.dropLast()), key: key, kind: .attribute)
            } else {
                throw CommandFailure(
                    message: "--fields '\(text)': \(current) has no stored property '\(key)'")
            }
        }
        throw CommandFailure(message: "--fields '\(text)': expected a key path")
    }
}

/// One value of a query row.
enum QueryCell {
    case value(AttributeValue?)
    case object(String?)
    case objects([String])
}

/// One fetched object as the query command prints it: its id and the value
/// of each field.
struct QueryRow {
    var id: String
    var cells: [QueryCell]

    init(_ object: ManagedObject, fields: [QueryField]) throws {
        id = object.objectID.description
        cells = try fields.map { field in
            var owner: ManagedObject? = object
            for key in field.path { owner = try owner?.object(forKey: key) }
            guard let owner else {
                return field.kind == .toMany ? .objects([]) : .value(nil)
            }
            switch field.kind {
            case .attribute: return .value(try owner.value(forKey: field.key))
            case .toOne: return .object(try owner.object(forKey: field.key)?.objectID.description)
            case .toMany:
                return .objects(try owner.objectIDs(forKey: field.key).map(\.description))
            }
        }
    }
}

/// The table, JSON and CSV forms of query results.
enum QueryOutput {
    static func render(_ rows: [QueryRow], fields: [String], as format: QueryCommand.Format)
        -> String
    {
        let header = ["id"] + fields
        switch format {
        case .table:
            guard !rows.isEmpty else { return "" }
            return TextTable.render(
                [header] + rows.map { [$0.id] + $0.cells.map { text($0, exact: false) } })
        case .csv:
            return ([header] + rows.map { [$0.id] + $0.cells.map { text($0, exact: true) } })
                .map { $0.map(csvField).joined(separator: ",") }
                .joined(separator: "\n")
        case .json:
            let objects = rows.map { row in
                var object: [String: JSONCell] = ["id": .string(row.id)]
                for (name, cell) in zip(fields, row.cells) { object[name] = json(cell) }
                return object
            }
            return (try? JSONOutput.encode(objects)) ?? "[]"
        }
    }

    /// A cell as text: a to-one as the destination's id, a to-many as its
    /// count; values as ``text(_:exact:)``.
    static func text(_ cell: QueryCell, exact: Bool) -> String {
        switch cell {
        case .value(let value): text(value, exact: exact)
        case .object(let id): id ?? ""
        case .objects(let ids): String(ids.count)
        }
    }

    /// A value as text: dates in ISO-8601 (UTC; with `exact`, every
    /// fractional digit the stored double has, else milliseconds), bytes as
    /// a count, nil empty.
    static func text(_ value: AttributeValue?, exact: Bool = false) -> String {
        guard let value else { return "" }
        switch value {
        case .integer(let number): return String(number)
        case .real(let number): return String(number)
        case .string(let text): return text
        case .boolean(let flag): return flag ? "true" : "false"
        case .date(let seconds): return exact ? exactDate(seconds) : isoDate(seconds)
        case .data(let bytes): return "\(bytes.count) bytes"
        case .uuid(let uuid): return uuid.uuidString
        }
    }

    private static func json(_ cell: QueryCell) -> JSONCell {
        switch cell {
        case .value(let value): json(value)
        case .object(let id): id.map(JSONCell.string) ?? .null
        case .objects(let ids): .strings(ids)
        }
    }

    private static func json(_ value: AttributeValue?) -> JSONCell {
        guard let value else { return .null }
        switch value {
        case .integer(let number): return .integer(number)
        case .real(let number): return .real(number)
        case .boolean(let flag): return .boolean(flag)
        case .data(let bytes): return .string(bytes.base64EncodedString())
        default: return .string(text(value, exact: true))
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

    /// ISO-8601 with every fractional digit of the stored seconds (Core Data
    /// stores a double since 2001: `464441952.529884` keeps its
    /// microseconds), at least three when there is a fraction.
    static func exactDate(_ seconds: Double) -> String {
        guard seconds.isFinite, seconds.rounded(.down) != seconds,
            let exact = Decimal(string: String(seconds))
        else { return isoDate(seconds) }
        let whole = seconds.rounded(.down)
        var fraction = "\(exact - Decimal(whole))"  // "0.529884", exactly.
        if let dot = fraction.firstIndex(of: ".") {
            fraction = String(fraction[fraction.index(after: dot)...])
        }
        while fraction.count < 3 { fraction += "0" }
        let stamp = isoDate(whole)  // "…T11:39:12Z"
        return String(stamp.dropLast()) + "." + fraction + "Z"
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
    case strings([String])

    func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .integer(let number): try container.encode(number)
        case .real(let number): try container.encode(number)
        case .boolean(let flag): try container.encode(flag)
        case .string(let text): try container.encode(text)
        case .strings(let texts): try container.encode(texts)
        }
    }
}
