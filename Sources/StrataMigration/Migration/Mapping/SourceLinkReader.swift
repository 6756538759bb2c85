import Foundation
import StrataCore
import StrataQuery
import StrataSchema
import StrataStore

/// Follows a ``LinkPath`` in the source store: the objects a source object
/// reaches through a path of relationships, in the relationship's stored
/// order (ordered relationships) or by primary key, and picks the one a
/// to-one keeps.
final class SourceLinkReader {
    private let path: LinkPath
    private let hops: [Statement]
    private let sortValue: (statement: Statement, attribute: Attribute)?
    private let keep: MappedRelationship.Keep?
    private let storeURL: URL
    /// For a path of one to-one hop whose inverse is an ordered to-many:
    /// the source object's stored position in that list (its `Z_FOK_`
    /// value), read by the last ``targets(of:)``; nil otherwise.
    private(set) var lastStoredOrder: Int64?

    /// A reader of `path` over the source store `tables`.
    ///
    /// - Throws: ``MappingError`` when the store lacks a relationship's
    ///   columns; ``SQLiteError`` when a statement does not prepare.
    init(
        _ path: LinkPath, keep: MappedRelationship.Keep?, tables: StoreMapping,
        connection: Connection, storeURL: URL, file: String, errorPath: String
    ) throws {
        self.path = path
        self.keep = keep
        self.storeURL = storeURL
        func missing(_ hop: LinkPath.Hop) -> MappingError {
            MappingError(
                file: file, path: errorPath,
                message: "the source store has no columns for "
                    + "\(hop.owner).\(hop.relationship.name)")
        }
        var hops: [Statement] = []
        for hop in path.hops {
            guard let owner = tables.entity(named: hop.owner),
                let target = tables.entity(named: hop.relationship.destination)
            else { throw missing(hop) }
            if hop.relationship.isToMany {
                guard let toMany = owner.toMany[hop.relationship.name] else { throw missing(hop) }
                hops.append(
                    try connection.prepare(toMany.destinationsSQL(destinationTable: target.table)))
            } else {
                guard let key = owner.toOne[hop.relationship.name] else { throw missing(hop) }
                // A lone to-one hop also reads the owner's place in the
                // inverse's ordered list, so the destination keeps it.
                let order = path.hops.count == 1 ? key.orderColumn : nil
                let columns =
                    [key.foreignKey] + (order.map { [$0] } ?? [])
                hops.append(
                    try connection.prepare(
                        "SELECT \(columns.map(SQLiteIdentifier.quoted).joined(separator: ", "))"
                            + " FROM \(SQLiteIdentifier.quoted(owner.table)) WHERE Z_PK = ?"))
            }
        }
        self.hops = hops
        if let name = keep?.sortBy,
            let attribute = tables.model.allAttributes(of: path.end).first(where: {
                $0.name == name
            }),
            let end = tables.entity(named: path.end),
            let column = end.attributeColumns[name]
        {
            sortValue = (
                try connection.prepare(
                    "SELECT \(SQLiteIdentifier.quoted(column)) FROM "
                        + "\(SQLiteIdentifier.quoted(end.table)) WHERE Z_PK = ?"),
                attribute
            )
        } else {
            sortValue = nil
        }
    }

    /// The primary keys the path reaches from source object `key`, without
    /// repeats; only the kept one when the rule has `keep`.
    func targets(of key: Int64) throws -> [Int64] {
        var current = [key]
        lastStoredOrder = nil
        for statement in hops {
            var next: [Int64] = []
            var seen: Set<Int64> = []
            for owner in current {
                try statement.bind([.integer(owner)])
                try statement.forEachRow { row in
                    if row.columnCount > 1, !row.isNull(at: 1) {
                        lastStoredOrder = row.int64(at: 1)
                    }
                    guard !row.isNull(at: 0) else { return }
                    let found = row.int64(at: 0)
                    if seen.insert(found).inserted { next.append(found) }
                }
            }
            current = next
        }
        guard let keep, current.count > 1 else { return current }
        if let (statement, attribute) = sortValue {
            var keyed: [(MappingValue, Int64)] = []
            for target in current {
                try statement.bind([.integer(target)])
                var value = MappingValue.null
                try statement.forEachRow { row in
                    value = MappingValue(
                        try ColumnValueCodec.decode(
                            row.value(at: 0), attribute, storeURL: storeURL, primaryKey: target))
                }
                keyed.append((value, target))
            }
            // nil sorts first, as in Core Data's sort descriptors; ties keep
            // the path's order.
            let sorted = keyed.enumerated().sorted { left, right in
                let (a, b) = (left.element.0, right.element.0)
                if a.isNull != b.isNull { return a.isNull }
                let order = ExpressionEvaluator.order(a, b) ?? 0
                return order != 0 ? order < 0 : left.offset < right.offset
            }.map(\.element.1)
            current = sorted
        }
        return [(keep.first ? current.first : current.last)].compactMap { $0 }
    }
}
