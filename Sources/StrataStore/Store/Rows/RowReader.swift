import Foundation
import StrataCore

/// Reads the rows of a Core Data store: the one place that writes the SQL of
/// a read, from a ``RowQuery`` that names what it wants by entity,
/// attribute and relationship — the counterpart of ``RowWriter``.
///
/// Entity numbers come from the store's mapping (integers, written into the
/// SQL); names are quoted; values are bound. Statements come from the
/// connection's cache, so a read repeated in a run is compiled once.
package struct RowReader {
    /// The store's connection.
    package let connection: Connection
    /// Where each entity and property lives in the store.
    package let tables: StoreMapping
    /// The store's path, for errors.
    package let path: String

    /// A reader of the store at `path` through `connection`.
    package init(_ connection: Connection, tables: StoreMapping, path: String) {
        self.connection = connection
        self.tables = tables
        self.path = path
    }

    /// A reader of `store`'s rows laid out by `tables`.
    package init(_ store: Store, tables: StoreMapping) {
        self.init(store.connection, tables: tables, path: store.path)
    }

    /// The statement of `query`, its ``RowQuery/arguments`` bound unless it
    /// has parameters bound per read.
    ///
    /// - Throws: ``StoreError`` `schemaMismatch` when the store has no table
    ///   for the entity or no column for a property read (a key path reads
    ///   NULL instead); ``SQLiteError`` when the statement does not compile.
    package func prepare(_ query: RowQuery) throws -> Statement {
        let statement = try connection.cachedStatement(try sql(of: query))
        if !query.hasReadParameters { try statement.bind(query.arguments) }
        return statement
    }

    /// The SQL of `query`, written once for a read that runs many times
    /// (a context's fetch plan): ``prepare(_:)-(CompiledRowQuery)`` then
    /// costs only the statement cache's lookup.
    ///
    /// - Throws: As ``prepare(_:)``.
    package func compile(_ query: RowQuery) throws -> CompiledRowQuery {
        CompiledRowQuery(sql: try sql(of: query))
    }

    /// The statement of a compiled query, with nothing bound: the caller
    /// binds its arguments and per-read parameters, in order.
    ///
    /// - Throws: ``SQLiteError`` when the statement does not compile.
    package func prepare(_ compiled: CompiledRowQuery) throws -> Statement {
        try connection.cachedStatement(compiled.sql)
    }

    /// Runs `query` and calls `body` with each row.
    ///
    /// - Throws: As ``prepare(_:)``; what `body` throws.
    package func forEachRow(_ query: RowQuery, _ body: (Statement) throws -> Void) throws {
        try prepare(query).forEachRow(body)
    }

    /// The SQL of `query`.
    package func sql(of query: RowQuery) throws -> String {
        let place = try entity(query.entity)
        var joins: [String] = []
        var aliases: [String: String] = [:]
        let columns = try query.columns.map {
            try sql(of: $0, in: place, entity: query.entity, &joins, &aliases)
        }
        // Before the text is written: a key path among them adds its joins.
        let groups = try query.groupBy.map {
            try sql(of: $0, in: place, entity: query.entity, &joins, &aliases)
        }
        var conditions: [String] = []
        switch query.entities {
        case .tree: conditions.append("t0.Z_ENT IN (\(Self.list(place.treeNumbers)))")
        case .exactly: conditions.append("t0.Z_ENT = \(place.number)")
        case .allBut(let numbers) where !numbers.isEmpty:
            conditions.append("(t0.Z_ENT IS NULL OR t0.Z_ENT NOT IN (\(Self.list(numbers))))")
        case .allBut, .table: break
        }
        for filter in query.filters {
            switch filter {
            case .compiled(let condition): conditions.append("(\(condition))")
            case .isNull(let name): conditions.append(try column(name, in: place) + " IS NULL")
            case .isNotNull(let name):
                conditions.append(try column(name, in: place) + " IS NOT NULL")
            case .fewerDestinations(let name, let count):
                conditions.append(
                    "(SELECT COUNT(*) FROM \(try links(of: name, in: place))) < \(count)")
            case .hasDestinations(let name):
                conditions.append("EXISTS (SELECT 1 FROM \(try links(of: name, in: place)))")
            case .key, .values, .equals, .isNullOrEquals: break  // Bound per read: last.
            }
        }
        for filter in query.filters {
            switch filter {
            case .key: conditions.append("t0.Z_PK = ?")
            case .equals(let name): conditions.append(try column(name, in: place) + " = ?")
            case .isNullOrEquals(let name):
                let column = try column(name, in: place)
                conditions.append("(\(column) IS NULL OR \(column) = ?)")
            case .values(let keys, let count):
                let names = try keys.map {
                    try sql(of: $0, in: place, entity: query.entity, &joins, &aliases)
                }
                let marks = Array(repeating: "?", count: names.count).joined(separator: ", ")
                let tuple = names.count == 1 ? "?" : "(" + marks + ")"
                let left = names.count == 1 ? names[0] : "(" + names.joined(separator: ", ") + ")"
                conditions.append(
                    "\(left) IN (" + (names.count == 1 ? "" : "VALUES ")
                        + Array(repeating: tuple, count: count).joined(separator: ", ") + ")")
            default: break
            }
        }
        var text =
            "SELECT \(columns.joined(separator: ", ")) FROM "
            + (query.from ?? "\(SQLiteIdentifier.quoted(place.table)) AS t0")
        if !joins.isEmpty { text += " " + joins.joined(separator: " ") }
        if !conditions.isEmpty { text += " WHERE " + conditions.joined(separator: " AND ") }
        if !groups.isEmpty {
            text += " GROUP BY " + groups.joined(separator: ", ")
            if let size = query.minimumGroupSize { text += " HAVING COUNT(*) >= \(size)" }
        }
        let order = query.order + (query.inKeyOrder ? ["t0.Z_PK"] : [])
        if !order.isEmpty { text += " ORDER BY " + order.joined(separator: ", ") }
        if query.pagesByParameters {
            text += " LIMIT ? OFFSET ?"
        } else if let limit = query.limit {
            text += " LIMIT \(limit)"
        }
        return text
    }

    /// How many rows `query` reads (groups, when it is grouped), whatever
    /// its columns: `values` are bound after its ``RowQuery/arguments``,
    /// for its parameters bound per read.
    ///
    /// - Throws: As ``prepare(_:)``.
    package func count(_ query: RowQuery, _ values: [SQLiteValue] = []) throws -> Int64 {
        var counted = query
        counted.columns = [.count]
        counted.order = []
        counted.inKeyOrder = false
        counted.limit = nil
        var text = try sql(of: counted)
        if !query.groupBy.isEmpty { text = "SELECT COUNT(*) FROM (\(text))" }
        let total = try integer(text, query.arguments + values)
        return query.limit.map { min(total, Int64($0)) } ?? total
    }

    /// The integer in the first column of the one row `sql` reads (0 when
    /// it reads none).
    func integer(_ sql: String, _ values: [SQLiteValue] = []) throws -> Int64 {
        let statement = try connection.cachedStatement(sql)
        try statement.bind(values)
        defer { statement.reset() }
        return try statement.step() ? statement.int64(at: 0) : 0
    }

    /// The mapping of `name`.
    ///
    /// - Throws: ``StoreError`` `schemaMismatch` when the store has no table
    ///   for it.
    package func entity(_ name: String) throws -> StoreMapping.EntityMapping {
        guard let place = tables.entity(named: name) else {
            throw StoreError(
                .schemaMismatch, path: path, message: "the store has no table for \(name)")
        }
        return place
    }

    private func sql(
        of column: RowColumn, in place: StoreMapping.EntityMapping, entity: String,
        _ joins: inout [String], _ aliases: inout [String: String]
    ) throws -> String {
        switch column {
        case .key: return "t0.Z_PK"
        case .entity: return "t0.Z_ENT"
        case .version: return "t0.Z_OPT"
        case .null: return "NULL"
        case .attribute(let name): return try self.column(.attribute(name), in: place)
        case .attributePrefix(let name, let bytes):
            return "substr(\(try self.column(.attribute(name), in: place)), 1, \(bytes))"
        case .toOne(let name): return try self.column(.toOne(name), in: place)
        case .toOneEntity(let name):
            return place.toOne[name]?.entityColumn.map { "t0." + SQLiteIdentifier.quoted($0) }
                ?? "NULL"
        case .toOneOrder(let name):
            return place.toOne[name]?.orderColumn.map { "t0." + SQLiteIdentifier.quoted($0) }
                ?? "NULL"
        case .keyPath(let names):
            return keyPath(names, from: entity, &joins, &aliases)
        case .compiled(let expression): return expression
        case .isNull(let name):
            return "(\(try self.column(name, in: place)) IS NULL)"
        case .nullCount(let name):
            return "ifnull(SUM(\(try self.column(name, in: place)) IS NULL), 0)"
        case .count: return "COUNT(*)"
        }
    }

    private func column(_ name: RowColumnName, in place: StoreMapping.EntityMapping) throws
        -> String
    {
        let column: String?
        switch name {
        case .attribute(let attribute): column = place.attributeColumns[attribute]
        case .toOne(let relationship): column = place.toOne[relationship]?.foreignKey
        }
        guard let column else {
            throw StoreError(
                .schemaMismatch, path: path,
                message: "the store has no column for \(place.name).\(name.property)")
        }
        return "t0." + SQLiteIdentifier.quoted(column)
    }

    /// An attribute through to-ones: a `LEFT JOIN` per to-one crossed, each
    /// prefix joined once (`m1`, `m2`, …).
    private func keyPath(
        _ names: [String], from entity: String, _ joins: inout [String],
        _ aliases: inout [String: String]
    ) -> String {
        var alias = "t0"
        var current = entity
        for (index, name) in names.dropLast().enumerated() {
            guard
                let relationship = tables.model.allRelationships(of: current).first(where: {
                    $0.name == name
                }), !relationship.isToMany,
                let key = tables.entity(named: current)?.toOne[name],
                let target = tables.entity(named: relationship.destination)
            else { return "NULL" }
            let prefix = names[0...index].joined(separator: ".")
            if let known = aliases[prefix] {
                alias = known
            } else {
                let next = "m\(aliases.count + 1)"
                joins.append(
                    "LEFT JOIN \(SQLiteIdentifier.quoted(target.table)) AS \(next) ON "
                        + "\(next).Z_PK = \(alias).\(SQLiteIdentifier.quoted(key.foreignKey))")
                aliases[prefix] = next
                alias = next
            }
            current = relationship.destination
        }
        guard let last = names.last,
            let column = tables.entity(named: current)?.attributeColumns[last]
        else { return "NULL" }
        return "\(alias).\(SQLiteIdentifier.quoted(column))"
    }

    static func list(_ numbers: [Int]) -> String {
        numbers.map(String.init).joined(separator: ", ")
    }
}

extension RowColumnName {
    /// The property's name.
    package var property: String {
        switch self {
        case .attribute(let name), .toOne(let name): return name
        }
    }
}

/// A ``RowQuery``'s SQL, written by ``RowReader/compile(_:)``: kept by a
/// reader that runs the same query many times.
package struct CompiledRowQuery: Hashable, Sendable {
    /// The statement's text.
    package let sql: String
}
