import StrataCore
import StrataSchema

extension RowWriter {
    /// Deletes row `key` of the tree rooted at `root`, and clears every
    /// foreign key and join row of `tables` that points at it — delete
    /// rules do not run: the object is dropped (by a migration's `where`),
    /// not deleted by the app.
    package func drop(_ key: Int64, ofTreeRootedAt root: String, model: Model, tables: StoreMapping)
        throws
    {
        guard writes else { return }
        if drops[root] == nil {
            drops[root] = try Self.dropStatements(root: root, model: model, tables: tables)
                .map(prepared)
        }
        for statement in drops[root] ?? [] { try statement.execute([.integer(key)]) }
    }

    /// The statements that drop an object of `root`'s tree, each taking
    /// its key: its row's delete, then each clearing of a reference.
    private static func dropStatements(root: String, model: Model, tables: StoreMapping)
        -> [String]
    {
        let quoted = SQLiteIdentifier.quoted
        var statements: [String] = []
        if let table = tables.entity(named: root)?.table {
            statements.append("DELETE FROM \(quoted(table)) WHERE Z_PK = ?")
        }
        var seen: Set<String> = []
        for owner in model.entitiesInNumberingOrder {
            guard let layout = tables.entity(named: owner.name) else { continue }
            for relationship in model.allRelationships(of: owner.name)
            where model.rootEntity(of: relationship.destination)?.name == root {
                if let key = layout.toOne[relationship.name] {
                    let columns = [key.foreignKey, key.entityColumn, key.orderColumn]
                        .compactMap { $0 }
                    let sql =
                        "UPDATE \(quoted(layout.table)) SET "
                        + columns.map { "\(quoted($0)) = NULL" }.joined(separator: ", ")
                        + " WHERE \(quoted(key.foreignKey)) = ?"
                    if seen.insert(sql).inserted { statements.append(sql) }
                }
                if case .joinTable(let table, _, let theirs, _)? = layout.toMany[relationship.name]
                {
                    let sql = "DELETE FROM \(quoted(table)) WHERE \(quoted(theirs)) = ?"
                    if seen.insert(sql).inserted { statements.append(sql) }
                }
            }
        }
        return statements
    }
}
