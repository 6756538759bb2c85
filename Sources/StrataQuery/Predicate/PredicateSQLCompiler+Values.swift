import Foundation
import StrataCore

// MARK: - Values as stored

extension PredicateSQLCompiler {
    /// `value` as the store holds it in a column of `kind`: dates as seconds
    /// since 2001, booleans as 0/1, UUIDs as 16 bytes, objects as `Z_PK`
    /// (coredata-format.md §1.4).
    package func sqlValue(_ value: PredicateValue, for kind: Kind, column: Int) throws
        -> SQLiteValue
    {
        switch (value, kind) {
        case (.null, _): return .null
        case (.object(let id), .object(let entity)):
            // An unsaved object or one of another entity tree matches no row.
            let tree = mapping.entity(named: entity)?.treeNumbers ?? []
            let numbers = Set(tree)
            guard let key = id.primaryKey,
                mapping.entity(named: id.entityName).map({ numbers.contains($0.number) }) ?? false
            else { return .integer(Int64.min) }
            return .integer(key)
        case (.boolean(let flag), _): return .integer(flag ? 1 : 0)
        case (.integer, _), (.real, _), (.date, _):
            return PredicateSQLCompiler.sqlValue(ofNumber: value) ?? .null
        case (.string(let text), .attribute(.uuid)):
            guard let uuid = UUID(uuidString: text) else {
                throw error(.typeMismatch, column: column, "a UUID attribute needs a UUID string")
            }
            return PredicateSQLCompiler.bytes(of: uuid)
        case (.string(let text), _): return .text(text)
        case (.data(let bytes), _): return .blob(bytes)
        case (.uuid(let uuid), _): return PredicateSQLCompiler.bytes(of: uuid)
        case (.object, _), (.array, _):
            throw error(
                .typeMismatch, column: column,
                "\(value.kindName) cannot be compared with \(kind.name)")
        }
    }

    /// A number as bound to any column (dates as seconds since 2001); nil
    /// for other values. The SQL around it never depends on the number,
    /// which lets a fetch plan be reused with other numbers
    /// (``FetchPlanCache``).
    package static func sqlValue(ofNumber value: PredicateValue) -> SQLiteValue? {
        switch value {
        case .integer(let number): .integer(number)
        case .real(let number): .real(number)
        case .date(let seconds): .real(seconds)
        default: nil
        }
    }

    package static func bytes(of uuid: UUID) -> SQLiteValue {
        withUnsafeBytes(of: uuid.uuid) { .blob(Data($0)) }
    }
}

extension PredicateSQLCompiler.Kind {
    /// The kind in words, for messages.
    var name: String {
        switch self {
        case .attribute(let type): "a \(type.rawValue) attribute"
        case .object(let entity): "a relationship to \(entity)"
        case .count: "a count"
        }
    }
}
