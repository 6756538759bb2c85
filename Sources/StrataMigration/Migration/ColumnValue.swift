import Foundation
import StrataSchema
import StrataStore

/// Where one column of a new or altered table gets its value for a row of
/// an old table: the SQL expression a rebuild selects or an `UPDATE` sets.
indirect enum ColumnValue: Hashable, Sendable {
    /// A column of the same old row.
    case column(String)
    /// NULL.
    case null
    /// A value, bound as a parameter.
    case value(AttributeValue)
    /// The current date, as seconds since 2001 (a `"now"` default).
    case now
    /// A fresh random 16-byte UUID (a `"uuid"` default).
    case randomUUID
    /// The first value when it is not NULL, else the second.
    case coalesce(ColumnValue, ColumnValue)
    /// The value converted to the storage class of a column type.
    case cast(ColumnValue, to: String)
    /// An entity number mapped from the old numbering to the new.
    case renumbered(ColumnValue, [Int: Int])
    /// A value that depends on the old row's entity number (`Z_ENT`).
    case byEntity([EntityCase])
    /// A scalar subquery; `%OLD%` stands for the old table's name.
    case query(String)
    /// A position in a Core Data ordered relationship (2048, 3072, …) among
    /// the rows with the same `partition`, in `order`; needs a window
    /// function, so only a rebuild can compute it.
    case ordinal(partition: ColumnValue, order: ColumnValue)

    /// The value for rows of some old entities.
    struct EntityCase: Hashable, Sendable {
        var numbers: [Int]
        var value: ColumnValue
    }

    /// Whether the value needs `INSERT … SELECT` (a window function).
    var needsRebuild: Bool {
        switch self {
        case .ordinal: true
        case .coalesce(let first, let second): first.needsRebuild || second.needsRebuild
        case .cast(let value, _), .renumbered(let value, _): value.needsRebuild
        case .byEntity(let cases): cases.contains { $0.value.needsRebuild }
        default: false
        }
    }

    /// The SQL text over the old table `table`, with its bound values.
    func sql(over table: String) -> (text: String, arguments: [AttributeValue]) {
        let old = SQLName.sql(table)
        switch self {
        case .column(let name): return ("\(old).\(SQLName.sql(name))", [])
        case .null: return ("NULL", [])
        case .value(let value): return ("?", [value])
        // Julian day 2451910.5 is 2001-01-01T00:00:00Z, Core Data's epoch.
        case .now: return ("((julianday('now') - 2451910.5) * 86400.0)", [])
        case .randomUUID: return ("randomblob(16)", [])
        case .coalesce(let first, let second):
            let (a, b) = (first.sql(over: table), second.sql(over: table))
            return ("COALESCE(\(a.text), \(b.text))", a.arguments + b.arguments)
        case .cast(let value, let type):
            let inner = value.sql(over: table)
            return ("CAST(\(inner.text) AS \(Self.storageType(of: type)))", inner.arguments)
        case .renumbered(let value, let numbers):
            let inner = value.sql(over: table)
            let cases = numbers.sorted { $0.key < $1.key }.map { "WHEN \($0.key) THEN \($0.value)" }
            return ("CASE \(inner.text) \(cases.joined(separator: " ")) END", inner.arguments)
        case .byEntity(let cases):
            var arguments: [AttributeValue] = []
            var parts: [String] = []
            for entry in cases {
                let inner = entry.value.sql(over: table)
                let numbers = entry.numbers.map(String.init).joined(separator: ", ")
                parts.append("WHEN \(old).Z_ENT IN (\(numbers)) THEN \(inner.text)")
                arguments += inner.arguments
            }
            return ("CASE \(parts.joined(separator: " ")) END", arguments)
        case .query(let text): return (text.replacingOccurrences(of: "%OLD%", with: old), [])
        case .ordinal(let partition, let order):
            let (a, b) = (partition.sql(over: table), order.sql(over: table))
            return (
                OrderKey.sql(
                    ofRowNumber: "ROW_NUMBER() OVER (PARTITION BY \(a.text) ORDER BY \(b.text))"),
                a.arguments + b.arguments
            )
        }
    }

    /// `CAST` target for a Core Data column type: its SQLite storage class.
    private static func storageType(of columnType: String) -> String {
        switch columnType {
        case "INTEGER": "INTEGER"
        case "FLOAT", "TIMESTAMP": "REAL"
        case "DECIMAL": "NUMERIC"
        case "VARCHAR": "TEXT"
        default: "BLOB"
        }
    }

    /// The value of an attribute's default in its column.
    static func of(_ defaultValue: AttributeDefault?, for attribute: Attribute) -> ColumnValue {
        switch defaultValue {
        case nil: return .null
        case .now: return .now
        case .uuid: return .randomUUID
        case .literal(.boolean(let flag)): return .value(.integer(flag ? 1 : 0))
        case .literal(.date(let seconds)): return .value(.real(seconds))
        case .literal(.uuid(let uuid)):
            return .value(.data(withUnsafeBytes(of: uuid.uuid) { Data($0) }))
        case .literal(.data(let bytes)) where attribute.allowsExternalStorage:
            return .value(.data(ExternalBinary.encodeInline(bytes)))
        case .literal(let value): return .value(value)
        }
    }
}
