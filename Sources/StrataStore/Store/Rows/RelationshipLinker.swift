import StrataCore
import StrataSchema

/// Writes the links of one relationship between rows that exist: where its
/// keys live (a foreign key on either side, both for one-to-one, or a join
/// table) and the statements that add a link or remove all links of an
/// object, keeping Core Data's entity-number and order columns filled —
/// the row layer's link writer for set-by-key work such as a migration's
/// mapping rules (``RowWriter`` writes the rows themselves).
///
/// Every statement takes its keys as parameters `?1` (owner) and `?2`
/// (target), and a link to a target that does not exist (dropped by a
/// mapping's `where`) changes nothing.
package final class RelationshipLinker {
    private let link: Statement
    private let unlink: [Statement]
    private let exclusive: [Statement]
    /// Whether ``add(owner:target:position:)`` uses the position.
    private let usesPosition: Bool
    /// Whether the link statement binds the owner's stored place (`?3`) in
    /// an ordered inverse.
    private let takesStoredOrder: Bool
    /// Whether the relationship is to-many (from the owner's side).
    package let isToMany: Bool

    /// The linker of relationship `name` of entity `entity`, in the store
    /// `tables` describes.
    ///
    /// - Throws: ``StoreError`` (`schemaMismatch`) when the store lacks the
    ///   relationship's columns; ``SQLiteError`` when a statement does not
    ///   prepare.
    package init(
        _ name: String, of entity: String, model: Model, tables: StoreMapping,
        connection: Connection
    ) throws {
        func missing() -> StoreError {
            StoreError(
                .schemaMismatch, path: connection.path,
                message: "the store has no columns for \(entity).\(name)")
        }
        func quoted(_ name: String) -> String { SQLiteIdentifier.quoted(name) }
        guard
            let relationship = model.allRelationships(of: entity).first(where: { $0.name == name }),
            let owner = tables.entity(named: entity),
            let target = tables.entity(named: relationship.destination)
        else { throw missing() }
        let inverse = model.allRelationships(of: relationship.destination)
            .first { $0.name == relationship.inverse }
        isToMany = relationship.isToMany
        let (ownerTable, targetTable) = (quoted(owner.table), quoted(target.table))
        var unlink: [String] = []
        var exclusive: [String] = []
        let linkSQL: String
        if !relationship.isToMany {
            guard let key = owner.toOne[name] else { throw missing() }
            var sets = [
                "\(quoted(key.foreignKey)) = (SELECT Z_PK FROM \(targetTable) WHERE Z_PK = ?2)"
            ]
            var clears = ["\(quoted(key.foreignKey)) = NULL"]
            if let column = key.entityColumn {
                sets.append(
                    "\(quoted(column)) = (SELECT Z_ENT FROM \(targetTable) WHERE Z_PK = ?2)")
                clears.append("\(quoted(column)) = NULL")
            }
            if let column = key.orderColumn {
                // The source's stored place when the rule has one (?3),
                // else after the target's last owner.
                sets.append(
                    "\(quoted(column)) = COALESCE(?3, "
                        + OrderKey.sql(
                            after: "(SELECT MAX(\(quoted(column))) FROM \(ownerTable) "
                                + "WHERE \(quoted(key.foreignKey)) = ?2)") + ")")
                clears.append("\(quoted(column)) = NULL")
            }
            takesStoredOrder = key.orderColumn != nil
            linkSQL = "UPDATE \(ownerTable) SET \(sets.joined(separator: ", ")) WHERE Z_PK = ?1"
            unlink.append(
                "UPDATE \(ownerTable) SET \(clears.joined(separator: ", ")) WHERE Z_PK = ?1")
            if let inverse, !inverse.isToMany, let back = target.toOne[inverse.name] {
                // One-to-one: the key lives on both sides, and each object
                // has one partner.
                var backSets = ["\(quoted(back.foreignKey)) = ?1"]
                var backClears = ["\(quoted(back.foreignKey)) = NULL"]
                if let column = back.entityColumn {
                    backSets.append(
                        "\(quoted(column)) = (SELECT Z_ENT FROM \(ownerTable) WHERE Z_PK = ?1)")
                    backClears.append("\(quoted(column)) = NULL")
                }
                unlink.append(
                    "UPDATE \(targetTable) SET \(backClears.joined(separator: ", ")) "
                        + "WHERE \(quoted(back.foreignKey)) = ?1")
                exclusive = [
                    "UPDATE \(ownerTable) SET \(clears.joined(separator: ", ")) "
                        + "WHERE \(quoted(key.foreignKey)) = ?2 AND Z_PK <> ?1",
                    "UPDATE \(targetTable) SET \(backClears.joined(separator: ", ")) "
                        + "WHERE \(quoted(back.foreignKey)) = ?1 AND Z_PK <> ?2",
                    "UPDATE \(targetTable) SET \(backSets.joined(separator: ", ")) WHERE Z_PK = ?2",
                ]
            }
            usesPosition = false
        } else {
            takesStoredOrder = false
            switch owner.toMany[name] {
            case .inverseForeignKey(_, let column, let order)?:
                guard let inverse, let back = target.toOne[inverse.name] else { throw missing() }
                var sets = ["\(quoted(column)) = ?1"]
                var clears = ["\(quoted(column)) = NULL"]
                if let entityColumn = back.entityColumn {
                    sets.append(
                        "\(quoted(entityColumn)) = (SELECT Z_ENT FROM \(ownerTable) WHERE Z_PK = ?1)"
                    )
                    clears.append("\(quoted(entityColumn)) = NULL")
                }
                if let order {
                    sets.append("\(quoted(order)) = ?3")
                    clears.append("\(quoted(order)) = NULL")
                }
                usesPosition = order != nil
                linkSQL =
                    "UPDATE \(targetTable) SET \(sets.joined(separator: ", ")) WHERE Z_PK = ?2"
                unlink.append(
                    "UPDATE \(targetTable) SET \(clears.joined(separator: ", ")) "
                        + "WHERE \(quoted(column)) = ?1")
            case .joinTable(let table, let mine, let theirs, let order)?:
                var columns = [quoted(mine), quoted(theirs)]
                var values = ["?1", "?2"]
                if let order {
                    columns.append(quoted(order))
                    values.append("?3")
                }
                if let inverse,
                    case .joinTable(_, _, _, let inverseOrder?)? = target.toMany[
                        inverse.name]
                {
                    columns.append(quoted(inverseOrder))
                    values.append(
                        OrderKey.sql(
                            after: "(SELECT MAX(\(quoted(inverseOrder))) FROM \(quoted(table)) "
                                + "WHERE \(quoted(theirs)) = ?2)"))
                }
                usesPosition = order != nil
                linkSQL =
                    "INSERT OR IGNORE INTO \(quoted(table)) (\(columns.joined(separator: ", "))) "
                    + "SELECT \(values.joined(separator: ", ")) WHERE EXISTS (SELECT 1 FROM "
                    + "\(targetTable) WHERE Z_PK = ?2)"
                unlink.append("DELETE FROM \(quoted(table)) WHERE \(quoted(mine)) = ?1")
            case nil:
                throw missing()
            }
        }
        link = try connection.prepare(linkSQL)
        self.unlink = try unlink.map { try connection.prepare($0) }
        self.exclusive = try exclusive.map { try connection.prepare($0) }
    }

    /// Links `owner` to `target`; `position` (from 0) places the target in
    /// an ordered to-many relationship; `storedOrder`, for a to-one whose
    /// inverse is ordered, places the owner in the target's list (nil puts
    /// it last).
    package func add(owner: Int64, target: Int64, position: Int, storedOrder: Int64? = nil) throws {
        var arguments: [SQLiteValue] = [.integer(owner), .integer(target)]
        if usesPosition { arguments.append(.integer(OrderKey.at(position))) }
        if takesStoredOrder { arguments.append(storedOrder.map { .integer($0) } ?? .null) }
        try link.execute(arguments)
        for statement in exclusive {
            try statement.execute([.integer(owner), .integer(target)])
        }
    }

    /// Removes every link of `owner` through the relationship.
    package func removeAll(owner: Int64) throws {
        for statement in unlink { try statement.execute([.integer(owner)]) }
    }
}
