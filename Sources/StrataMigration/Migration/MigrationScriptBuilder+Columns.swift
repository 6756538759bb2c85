import StrataSchema
import StrataStore

// MARK: - Column values of entity tables

extension MigrationScriptBuilder {
    /// The value of every column of the new `table` for the rows it takes
    /// from the old table `source`; a column left out is NULL.
    func columnValues(of table: TableLayout, from source: String) -> [String: ColumnValue] {
        let numbers = rowNumbers(of: table, from: source)
        var values: [String: ColumnValue] = [
            "Z_PK": .column("Z_PK"), "Z_OPT": .column("Z_OPT"),
            "Z_ENT": numbers.allSatisfy { $0.key == $0.value }
                ? .column("Z_ENT") : .renumbered(.column("Z_ENT"), numbers),
        ]
        // Each column may serve several entities of the tree: collect the
        // value for each entity's rows, then merge.
        var perColumn: [String: [ColumnValue.EntityCase]] = [:]
        for entity in context.destinationLayout.entities where entity.tableName == table.name {
            guard let former = context.formerEntity(of: entity.name),
                context.sourceTable(of: former) == source,
                let oldNumber = context.sourceNumbers[former]
            else { continue }
            for (name, column) in entity.attributeColumns {
                guard
                    let attribute = context.destination.allAttributes(of: entity.name)
                        .first(where: { $0.name == name })
                else { continue }
                perColumn[column, default: []].append(
                    .init(numbers: [oldNumber], value: attributeValue(attribute, of: entity.name)))
            }
            for (name, columns) in entity.toOneColumns {
                for (column, value) in toOneValues(name, columns, of: entity.name, in: source) {
                    perColumn[column, default: []].append(.init(numbers: [oldNumber], value: value))
                }
            }
        }
        let everyRow = Set(numbers.keys)
        for (column, cases) in perColumn {
            var merged: [ColumnValue.EntityCase] = []
            for entry in cases.sorted(by: { $0.numbers[0] < $1.numbers[0] }) {
                if let index = merged.firstIndex(where: { $0.value == entry.value }) {
                    merged[index].numbers += entry.numbers
                } else {
                    merged.append(entry)
                }
            }
            merged.removeAll { $0.value == .null }
            guard let first = merged.first else { continue }
            // Rows of other entities hold NULL in an old column, so a plain
            // copy needs no CASE; any other value must not reach them.
            if merged.count == 1,
                Set(first.numbers) == everyRow || (first.value.isCopy)
            {
                values[column] = first.value
            } else {
                values[column] = .byEntity(merged)
            }
        }
        return values
    }

    /// An attribute's values for the rows of newer entity `entity`.
    private func attributeValue(_ attribute: Attribute, of entity: String) -> ColumnValue {
        let fallback = ColumnValue.of(attribute.defaultValue, for: attribute)
        guard let former = context.formerEntity(of: entity),
            let old = context.formerAttribute(attribute.name, of: entity),
            let column = context.sourceLayout.entity(named: former)?.attributeColumns[old.name]
        else { return fallback }
        // A conversion no SQL can make is left to a mapping.
        if StepFinder.typeChange(from: old.type, to: attribute.type).1 == .needsMapping,
            old.type != attribute.type
        {
            return fallback
        }
        var value = ColumnValue.column(column)
        if old.type.columnType != attribute.type.columnType {
            value = .cast(value, to: attribute.type.columnType)
        }
        // Nils of an attribute that becomes required take the default; a
        // column that was required already is copied as it is (Core Data's
        // lightweight migration does not repair data either).
        if !attribute.isOptional, old.isOptional, fallback != .null {
            value = .coalesce(value, fallback)
        }
        return value
    }

    /// The values of a to-one relationship's columns (key, entity number,
    /// order) for the rows of newer entity `entity` taken from `source`.
    private func toOneValues(
        _ name: String, _ columns: EntityLayout.ToOneColumns, of entity: String, in source: String
    ) -> [(String, ColumnValue)] {
        guard let former = context.formerEntity(of: entity),
            let relationship = context.destination.allRelationships(of: entity)
                .first(where: { $0.name == name }),
            let oldDestination = context.formerEntity(of: relationship.destination),
            let oldDestinationTable = context.sourceTable(of: oldDestination)
        else { return [] }
        let key: ColumnValue
        var oldColumns: EntityLayout.ToOneColumns?
        guard let old = context.formerRelationship(name, of: entity) else {
            // A new to-one whose inverse was a to-many without one: the owner
            // listed in that old join table.
            guard let owner = ownerThroughOneSidedInverse(of: relationship) else { return [] }
            return toOneValues(
                key: .query(owner), columns, oldColumns: nil, in: source,
                oldDestinationTable: oldDestinationTable)
        }
        guard oldDestination == old.destination else { return [] }
        if !old.isToMany {
            guard let placed = context.sourceLayout.entity(named: former)?.toOneColumns[old.name]
            else { return [] }
            oldColumns = placed
            key = .column(placed.foreignKey)
        } else if let lowest = lowestMember(of: old, declaredBy: former) {
            key = .query(lowest)
        } else {
            return []
        }
        return toOneValues(
            key: key, columns, oldColumns: oldColumns, in: source,
            oldDestinationTable: oldDestinationTable)
    }

    /// The key, entity number and order columns of a to-one whose old key is `key`.
    private func toOneValues(
        key: ColumnValue, _ columns: EntityLayout.ToOneColumns,
        oldColumns: EntityLayout.ToOneColumns?, in source: String, oldDestinationTable: String
    ) -> [(String, ColumnValue)] {
        var values: [(String, ColumnValue)] = [(columns.foreignKey, key)]
        if let entityColumn = columns.entityNumber {
            let renumber = Dictionary(
                context.match.entities.compactMap { new, old in
                    context.sourceNumbers[old].flatMap { oldNumber in
                        context.destinationNumbers[new].map { (oldNumber, $0) }
                    }
                }
            ) { first, _ in first }
            let oldNumber: ColumnValue
            if let existing = oldColumns?.entityNumber {
                oldNumber = .column(existing)
            } else {
                let keySQL = key.sql(over: source).text
                oldNumber = .query(
                    "(SELECT k.Z_ENT FROM \(SQLName.sql(oldDestinationTable)) AS k "
                        + "WHERE k.Z_PK = \(keySQL))")
            }
            values.append((entityColumn, .renumbered(oldNumber, renumber)))
        }
        if let orderColumn = columns.order {
            if let existing = oldColumns?.order {
                values.append((orderColumn, .column(existing)))
            } else {
                values.append((orderColumn, .ordinal(partition: key, order: .column("Z_PK"))))
            }
        }
        return values
    }

    /// For a new to-one whose inverse was a to-many without an inverse: a
    /// subquery for the lowest owner listing the row in that old join table.
    private func ownerThroughOneSidedInverse(of relationship: Relationship) -> String? {
        guard relationship.hasInverse,
            let owner = context.formerEntity(of: relationship.destination),
            let old = context.formerRelationship(
                relationship.inverse, of: relationship.destination),
            old.isToMany, !old.hasInverse,
            let name = context.sourceLayout.entity(named: owner)?.joinTables[old.name],
            let join = context.sourceLayout.joinTables.first(where: { $0.name == name }),
            join.isOneSided
        else { return nil }
        return "(SELECT MIN(j.\(SQLName.sql(join.sourceColumn))) FROM \(SQLName.sql(name)) AS j "
            + "WHERE j.\(SQLName.sql(join.destinationColumn)) = %OLD%.Z_PK)"
    }

    /// For a to-many that becomes to-one: a subquery for the member with the
    /// lowest primary key, read through the old inverse key or join table.
    private func lowestMember(of old: Relationship, declaredBy former: String) -> String? {
        guard
            let inverse = context.source.allRelationships(of: old.destination)
                .first(where: { $0.name == old.inverse })
        else { return nil }
        if !inverse.isToMany {
            guard let table = context.sourceTable(of: old.destination),
                let key = context.sourceLayout.entity(named: old.destination)?
                    .toOneColumns[inverse.name]?.foreignKey
            else { return nil }
            return "(SELECT MIN(j.Z_PK) FROM \(SQLName.sql(table)) AS j "
                + "WHERE j.\(SQLName.sql(key)) = %OLD%.Z_PK)"
        }
        guard let name = context.sourceLayout.entity(named: former)?.joinTables[old.name],
            let join = context.sourceLayout.joinTables.first(where: { $0.name == name })
        else { return nil }
        let (mine, theirs) =
            join.namingSide.relationship == old.name
            ? (join.namingSide, join.inverseSide) : (join.inverseSide, join.namingSide)
        return "(SELECT MIN(j.\(SQLName.sql(mine.destinationColumn))) FROM "
            + "\(SQLName.sql(name)) AS j WHERE j.\(SQLName.sql(theirs.destinationColumn)) "
            + "= %OLD%.Z_PK)"
    }
}

extension ColumnValue {
    /// Whether the value copies an old column, possibly converted: rows of
    /// entities that did not use the column hold NULL there already.
    var isCopy: Bool {
        switch self {
        case .column: true
        case .cast(let value, _): value.isCopy
        default: false
        }
    }
}
