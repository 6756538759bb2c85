import StrataCore
import StrataSchema

extension RowReader {
    /// How a read of a relationship's destinations is laid out
    /// (``destinations(of:from:attributes:inOwnerOrder:)``).
    package struct DestinationRows {
        /// The statement: the destination's key, its `Z_ENT`, the
        /// attributes asked for, then (in owner order) the owner's key.
        package let statement: Statement
        /// The column of the owner's key, when every owner's destinations
        /// are read at once.
        package let ownerColumn: Int32?
        /// Whether the one parameter is the destination's key (a to-one)
        /// rather than the owner's (a to-many of one owner); no parameter
        /// in owner order.
        package let bindsDestinationKey: Bool
    }

    /// The destinations of one owner's to-many, `Z_PK, Z_ENT`, in stored
    /// order (`Z_FOK_` ascending) when ordered, otherwise by key; bind the
    /// owner's key.
    ///
    /// - Throws: ``StoreError`` `schemaMismatch` when the store has no table
    ///   or column for the relationship.
    package func destinations(of relationship: String, from entity: String) throws -> Statement {
        let owner = try self.entity(entity)
        guard let toMany = owner.toMany[relationship],
            let destination = tables.model.allRelationships(of: entity).first(where: {
                $0.name == relationship
            })?.destination,
            let target = tables.entity(named: destination)
        else {
            throw StoreError(
                .schemaMismatch, path: path,
                message: "the store has no columns for \(entity).\(relationship)")
        }
        return try connection.cachedStatement(
            toMany.destinationsSQL(destinationTable: target.table))
    }

    /// How many owners hold more than `count` destinations in to-many
    /// `relationship` of `entity`, counted over its stored links by the
    /// owner's key (the destinations' keys to their owner, or the join
    /// rows), whether or not the owner's row is there.
    ///
    /// - Throws: ``StoreError`` `schemaMismatch` when the store has no table
    ///   or column for the relationship; ``SQLiteError``.
    package func owners(
        of relationship: String, from entity: String, holdingMoreThan count: Int
    ) throws -> Int64 {
        let links: String
        switch try self.entity(entity).toMany[relationship] {
        case .inverseForeignKey(let table, let column, _):
            let owner = SQLiteIdentifier.quoted(column)
            links = "\(SQLiteIdentifier.quoted(table)) WHERE \(owner) IS NOT NULL GROUP BY \(owner)"
        case .joinTable(let table, let source, _, _):
            links = "\(SQLiteIdentifier.quoted(table)) GROUP BY \(SQLiteIdentifier.quoted(source))"
        case nil:
            throw StoreError(
                .schemaMismatch, path: path,
                message: "the store has no columns for \(entity).\(relationship)")
        }
        return try integer(
            "SELECT COUNT(*) FROM (SELECT 1 FROM \(links) HAVING COUNT(*) > \(count))")
    }

    /// The stored links to the row `t0` of `owner` through its to-many
    /// `relationship`, for a subquery: `FROM` this, one row per destination.
    ///
    /// - Throws: ``StoreError`` `schemaMismatch` when the store has no table
    ///   or column for the relationship.
    func links(of relationship: String, in owner: StoreMapping.EntityMapping) throws -> String {
        let quoted = SQLiteIdentifier.quoted
        switch owner.toMany[relationship] {
        case .inverseForeignKey(let table, let column, _):
            return "\(quoted(table)) AS d WHERE d.\(quoted(column)) = t0.Z_PK"
        case .joinTable(let table, let source, _, _):
            return "\(quoted(table)) AS j WHERE j.\(quoted(source)) = t0.Z_PK"
        case nil:
            throw StoreError(
                .schemaMismatch, path: path,
                message: "the store has no columns for \(owner.name).\(relationship)")
        }
    }

    /// The destinations of `relationship` with the stored `attributes` of
    /// each: of one row (bind its key: the destination's key for a to-one,
    /// the owner's for a to-many), or with `inOwnerOrder` every owner's
    /// to-many destinations at once, ordered by owner, for a reader walking
    /// the owners in key order to merge beside them (one scan instead of a
    /// lookup per owner).
    ///
    /// - Throws: ``StoreError`` `schemaMismatch` when the store has no table
    ///   for the relationship; ``SQLiteError``.
    package func destinations(
        of relationship: Relationship, from owner: StoreMapping.EntityMapping,
        attributes: [Attribute], inOwnerOrder: Bool
    ) throws -> DestinationRows {
        guard let destination = tables.entity(named: relationship.destination) else {
            throw StoreError(
                .schemaMismatch, path: path,
                message: "\(relationship.name) leads to \(relationship.destination), "
                    + "which the store lacks")
        }
        let table = SQLiteIdentifier.quoted(destination.table)
        let sql: String
        var bindsDestinationKey = false
        var ownerColumn: Int32?
        // A destination without subentities has one entity number: no need
        // to visit its table for ids alone.
        let numberOnly = destination.treeNumbers.count == 1 && attributes.isEmpty
        func selected(_ key: String, owner: String? = nil) -> String {
            var columns = [key, numberOnly ? String(destination.number) : "d.Z_ENT"]
            columns += attributes.compactMap { destination.attributeColumns[$0.name] }.map {
                "d." + SQLiteIdentifier.quoted($0)
            }
            if let owner { columns.append(owner) }
            return columns.joined(separator: ", ")
        }
        if !relationship.isToMany {
            sql = "SELECT \(selected("d.Z_PK")) FROM \(table) AS d WHERE d.Z_PK = ?"
            bindsDestinationKey = true
        } else {
            if inOwnerOrder { ownerColumn = Int32(2 + attributes.count) }
            switch owner.toMany[relationship.name] {
            case .inverseForeignKey(_, let column, let orderColumn):
                let ordering = orderColumn.map { "d.\(SQLiteIdentifier.quoted($0)), " } ?? ""
                let ownerKey = "d." + SQLiteIdentifier.quoted(column)
                sql =
                    inOwnerOrder
                    ? "SELECT \(selected("d.Z_PK", owner: ownerKey)) FROM \(table) AS d"
                        + " WHERE \(ownerKey) IS NOT NULL ORDER BY \(ownerKey), \(ordering)d.Z_PK"
                    : "SELECT \(selected("d.Z_PK")) FROM \(table) AS d WHERE \(ownerKey) = ?"
                        + " ORDER BY \(ordering)d.Z_PK"
            case .joinTable(let join, let source, let target, let orderColumn):
                let ordering = orderColumn.map { "j.\(SQLiteIdentifier.quoted($0)), " } ?? ""
                let ownerKey = "j." + SQLiteIdentifier.quoted(source)
                let member = "j." + SQLiteIdentifier.quoted(target)
                let from =
                    numberOnly
                    ? "\(SQLiteIdentifier.quoted(join)) AS j"
                    : "\(SQLiteIdentifier.quoted(join)) AS j JOIN \(table) AS d ON d.Z_PK = \(member)"
                sql =
                    inOwnerOrder
                    ? "SELECT \(selected(member, owner: ownerKey)) FROM \(from)"
                        + " ORDER BY \(ownerKey), \(ordering)\(member)"
                    : "SELECT \(selected(member)) FROM \(from) WHERE \(ownerKey) = ?"
                        + " ORDER BY \(ordering)\(member)"
            case nil:
                throw StoreError(
                    .schemaMismatch, path: path,
                    message: "the store has no table for the relationship \(relationship.name)")
            }
        }
        return DestinationRows(
            statement: try connection.prepare(sql), ownerColumn: ownerColumn,
            bindsDestinationKey: bindsDestinationKey)
    }
}
