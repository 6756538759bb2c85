// MARK: - Join tables

extension MigrationScriptBuilder {
    /// A many-to-many table of the newer version, filled from the old join
    /// table of the same pair, or from the key column of a to-one side that
    /// became to-many (`favoriteFolder` → `favoriteFolders`), or left empty
    /// for a new pair.
    mutating func planJoinTable(_ join: JoinTableLayout) {
        let table = join.table
        let sides = [join.namingSide, join.inverseSide]
        let old = sides.map { context.formerRelationship($0.relationship, of: $0.entity) }
        guard let oldNaming = old[0], let oldInverse = old[1],
            let formerNaming = context.formerEntity(of: join.namingSide.entity),
            let formerInverse = context.formerEntity(of: join.inverseSide.entity)
        else {
            planNewJoinTable(table)
            return
        }
        if oldNaming.isToMany && oldInverse.isToMany {
            guard
                let name = context.sourceLayout.entity(named: formerNaming)?
                    .joinTables[oldNaming.name],
                let oldJoin = context.sourceLayout.joinTables.first(where: { $0.name == name })
            else {
                planNewJoinTable(table)
                return
            }
            copyJoinTable(join, from: oldJoin, relationships: [oldNaming.name, oldInverse.name])
            return
        }
        // One old side was to-one: its key column lists the pairs.
        let toOne = oldNaming.isToMany ? 1 : 0
        let former = toOne == 0 ? formerNaming : formerInverse
        let oldRelationship = toOne == 0 ? oldNaming : oldInverse
        guard let source = context.sourceTable(of: former),
            let columns = context.sourceLayout.entity(named: former)?
                .toOneColumns[oldRelationship.name]
        else {
            planNewJoinTable(table)
            return
        }
        let (keySide, rowSide) = (sides[toOne], sides[1 - toOne])
        var values: [String: ColumnValue] = [
            keySide.destinationColumn: .column(columns.foreignKey),
            rowSide.destinationColumn: .column("Z_PK"),
        ]
        if let order = rowSide.orderColumn {
            values[order] =
                columns.order.map { .column($0) }
                ?? .ordinal(partition: .column(columns.foreignKey), order: .column("Z_PK"))
        }
        if let order = keySide.orderColumn {
            values[order] = .ordinal(partition: .column("Z_PK"), order: .column(columns.foreignKey))
        }
        let numbers = context.sourceLayout.entity(named: former)?.treeNumbers ?? []
        let quoted = SQLName.sql(source)
        let filter =
            " WHERE \(quoted).\(SQLName.sql(columns.foreignKey)) IS NOT NULL"
            + " AND \(quoted).Z_ENT IN (\(numbers.map(String.init).joined(separator: ", ")))"
        fill(table, from: source, values: values, filter: filter)
    }

    /// An old join table copied column by column; untouched when nothing
    /// about it changes.
    private mutating func copyJoinTable(
        _ join: JoinTableLayout, from old: JoinTableLayout, relationships: [String]
    ) {
        func oldSide(_ relationship: String) -> JoinTableLayout.Side {
            old.namingSide.relationship == relationship ? old.namingSide : old.inverseSide
        }
        let pairs = zip([join.namingSide, join.inverseSide], relationships.map(oldSide))
        var values: [String: ColumnValue] = [:]
        for (new, before) in pairs {
            values[new.destinationColumn] = .column(before.destinationColumn)
        }
        // A side's order column ranks its members among the rows of the
        // same owner, whose keys the other side's column holds.
        for ((new, before), (other, _)) in zip(pairs, pairs.reversed()) {
            guard let order = new.orderColumn else { continue }
            values[order] =
                before.orderColumn.map { .column($0) }
                ?? .ordinal(
                    partition: values[other.destinationColumn] ?? .null,
                    order: values[new.destinationColumn] ?? .null)
        }
        let table = join.table
        let oldTable = old.table
        let unchanged =
            table.name.uppercased() == old.name.uppercased() && table.columns == oldTable.columns
            && values.allSatisfy { $0.value == .column($0.key) }
        if unchanged {
            // Kept in place; only indexes another framework named otherwise change.
            keptInPlace.insert(old.name.uppercased())
            let statements = Self.indexChanges(
                from: oldTable.indexes, to: table.indexes, on: table.name)
            if !statements.isEmpty {
                changes.append(
                    TableChange(
                        table: table.name, strategy: .alter, sources: [old.name], steps: [],
                        statements: statements))
            }
            return
        }
        fill(table, from: old.name, values: values, filter: "")
    }

    private mutating func planNewJoinTable(_ table: TableLayout) {
        let building = temporaryName(for: table.name)
        var statements = [
            MigrationStatement(
                StoreLayout.createTableSQL(
                    TableLayout(name: building, columns: table.columns, indexes: [])),
                phase: .build)
        ]
        statements += finish(table, builtAs: building)
        changes.append(
            TableChange(
                table: table.name, strategy: .create, sources: [], steps: [],
                statements: statements))
    }

    /// Create `table` (under a temporary name when an old table holds its
    /// name), fill it from `source`, then rename and index it.
    private mutating func fill(
        _ table: TableLayout, from source: String, values: [String: ColumnValue], filter: String
    ) {
        let building = temporaryName(for: table.name)
        var statements = [
            MigrationStatement(
                StoreLayout.createTableSQL(
                    TableLayout(name: building, columns: table.columns, indexes: [])),
                phase: .build)
        ]
        statements.append(
            insert(
                into: building, columns: table.columns.map(\.name), values: values, from: source,
                filter: filter))
        statements += finish(table, builtAs: building)
        changes.append(
            TableChange(
                table: table.name,
                strategy: source.uppercased() == table.name.uppercased() ? .rebuild : .create,
                sources: [source], steps: [], statements: statements))
    }
}
