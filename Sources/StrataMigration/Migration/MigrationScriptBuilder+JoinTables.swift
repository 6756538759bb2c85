import StrataSchema
import StrataStore

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
        let existing = old.compactMap { $0 }
        if join.isOneSided || (existing.count == 1 && !existing[0].hasInverse) {
            // A to-many without an inverse now, or a side without one before.
            if !planOneSided(join, old: old) { planNewJoinTable(table) }
            return
        }
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

    /// A join table where one side is nameless (a to-many without an
    /// inverse) now or was before: filled from the old join table of the
    /// side that existed, or, when it lost its inverse, from the old inverse
    /// key column (or the old to-one key of a to-one that became to-many).
    /// False when no side existed before (a new, empty table).
    private mutating func planOneSided(_ join: JoinTableLayout, old: [Relationship?]) -> Bool {
        let sides = [join.namingSide, join.inverseSide]
        guard let index = old.firstIndex(where: { $0 != nil }), let before = old[index],
            let former = context.formerEntity(of: sides[index].entity)
        else { return false }
        // The side holding `before`'s destinations and the side holding its owners.
        let (mine, owners) = (sides[index], sides[1 - index])
        if before.isToMany,
            let name = context.sourceLayout.entity(named: former)?.joinTables[before.name],
            let oldJoin = context.sourceLayout.joinTables.first(where: { $0.name == name })
        {
            // The old sides in the order of the new ones (a nameless side
            // is matched by any name other than the naming side's).
            let other =
                oldJoin.namingSide.relationship == before.name
                ? oldJoin.inverseSide.relationship : oldJoin.namingSide.relationship
            copyJoinTable(
                join, from: oldJoin,
                relationships: index == 0 ? [before.name, other] : [other, before.name])
            return true
        }
        let table = join.table
        if before.isToMany {
            // Its old inverse was a to-one: the destination rows' key column.
            guard
                let inverse = context.source.allRelationships(of: before.destination)
                    .first(where: { $0.name == before.inverse }), !inverse.isToMany,
                let source = context.sourceTable(of: before.destination),
                let columns = context.sourceLayout.entity(named: before.destination)?
                    .toOneColumns[inverse.name]
            else { return false }
            var values: [String: ColumnValue] = [
                owners.destinationColumn: .column(columns.foreignKey),
                mine.destinationColumn: .column("Z_PK"),
            ]
            if let order = mine.orderColumn {
                values[order] =
                    columns.order.map { .column($0) }
                    ?? .ordinal(partition: .column(columns.foreignKey), order: .column("Z_PK"))
            }
            fillFromKeys(
                table, source: source, key: columns.foreignKey, entity: before.destination,
                values: values)
            return true
        }
        // A to-one that became to-many: its key column lists the pairs.
        guard let source = context.sourceTable(of: former),
            let columns = context.sourceLayout.entity(named: former)?.toOneColumns[before.name]
        else { return false }
        var values: [String: ColumnValue] = [
            mine.destinationColumn: .column(columns.foreignKey),
            owners.destinationColumn: .column("Z_PK"),
        ]
        if let order = mine.orderColumn {
            values[order] = .ordinal(partition: .column("Z_PK"), order: .column(columns.foreignKey))
        }
        fillFromKeys(table, source: source, key: columns.foreignKey, entity: former, values: values)
        return true
    }

    /// Fills `table` from the rows of old entity `entity` (and its
    /// subentities) in `source` whose `key` is set.
    private mutating func fillFromKeys(
        _ table: TableLayout, source: String, key: String, entity: String,
        values: [String: ColumnValue]
    ) {
        let numbers = context.sourceLayout.entity(named: entity)?.treeNumbers ?? []
        let quoted = SQLName.sql(source)
        let filter =
            " WHERE \(quoted).\(SQLName.sql(key)) IS NOT NULL"
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
