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
        let reader = RowReader(connection, tables: tables, path: connection.path)
        var hops: [Statement] = []
        for hop in path.hops {
            let name = hop.relationship.name
            guard let owner = tables.entity(named: hop.owner),
                tables.entity(named: hop.relationship.destination) != nil
            else { throw missing(hop) }
            if hop.relationship.isToMany {
                guard owner.toMany[name] != nil else { throw missing(hop) }
                hops.append(try reader.destinations(of: name, from: hop.owner))
            } else {
                guard let key = owner.toOne[name] else { throw missing(hop) }
                // A lone to-one hop also reads the owner's place in the
                // inverse's ordered list, so the destination keeps it.
                let readsOrder = path.hops.count == 1 && key.orderColumn != nil
                let columns: [RowColumn] = [.toOne(name)] + (readsOrder ? [.toOneOrder(name)] : [])
                hops.append(try reader.prepare(Self.row(of: hop.owner, columns)))
            }
        }
        self.hops = hops
        if let name = keep?.sortBy,
            let attribute = tables.model.allAttributes(of: path.end).first(where: {
                $0.name == name
            }),
            tables.entity(named: path.end)?.attributeColumns[name] != nil
        {
            sortValue = (try reader.prepare(Self.row(of: path.end, [.attribute(name)])), attribute)
        } else {
            sortValue = nil
        }
    }

    /// A read of `columns` of the row whose key is bound, whichever entity
    /// of the table it belongs to.
    private static func row(of entity: String, _ columns: [RowColumn]) -> RowQuery {
        var query = RowQuery(entity, columns)
        query.entities = .table
        query.filters = [.key]
        query.inKeyOrder = false
        return query
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
