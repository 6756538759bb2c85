import StrataSchema

/// Column naming for one root table: every stored property of every entity in
/// the inheritance tree gets a column, in Core Data's order (§1.3):
/// entities in entity-number order, each entity's own properties by name, and
/// a name already taken in the table gets `1`, `2`, … appended.
struct RootTableColumns: Hashable, Sendable {
    /// The table with its columns in Core Data's cosmetic order and its indexes.
    let table: TableLayout
    /// Column of each attribute, keyed by declaring entity then attribute name.
    private let attributeColumns: [String: [String: String]]
    /// Columns of each to-one relationship, keyed by declaring entity then name.
    let toOne: [String: [String: EntityLayout.ToOneColumns]]

    /// Lays out the table of `root`, holding the entities of `tree`.
    ///
    /// - Parameters:
    ///   - parents: The names of the entities that have subentities, whose
    ///     to-one destinations need an entity-number column.
    init(
        root: Entity, tree: [Entity], model: Model, numbers: [String: Int], parents: Set<String>
    ) {
        let tableName = StoreLayout.tableName(ofRoot: root.name)
        var names = ColumnNamespace(reserved: ["Z_PK", "Z_ENT", "Z_OPT"])

        // Columns by group, for the cosmetic order of CREATE TABLE.
        var integerAttributes: [TableLayout.Column] = []
        var foreignKeys: [TableLayout.Column] = []
        var orderColumns: [TableLayout.Column] = []
        var typed: [String: [TableLayout.Column]] = [:]
        var indexes: [TableLayout.Index] = []
        var attributeColumns: [String: [String: String]] = [:]
        var toOne: [String: [String: EntityLayout.ToOneColumns]] = [:]
        var foreignKeyIndexes: [TableLayout.Index] = []

        // Claim names first, in the documented order, so digits land where
        // Core Data puts them; extra columns are derived afterwards.
        var placedToOnes: [(Entity, Relationship, String)] = []
        for entity in tree {
            let stored =
                entity.attributes.filter { !$0.isTransient }.map { ($0.name, $0 as Attribute?) }
                + entity.relationships.filter { !$0.isTransient && !$0.isToMany }.map {
                    ($0.name, nil as Attribute?)
                }
            for (name, attribute) in stored.sorted(by: { $0.0 < $1.0 }) {
                let column = names.claim("Z" + name.uppercased())
                if let attribute {
                    attributeColumns[entity.name, default: [:]][name] = column
                    let sqlColumn = TableLayout.Column(
                        name: column, type: attribute.type.columnType)
                    if attribute.type.columnType == "INTEGER" {
                        integerAttributes.append(sqlColumn)
                    } else {
                        typed[attribute.type.columnType, default: []].append(sqlColumn)
                    }
                    if attribute.isIndexed {
                        // Framework 836 and later (Strata claims 1338):
                        // `Z_<Entity>_<attribute>`, not 641/754's
                        // `<TABLE>_<COLUMN>_INDEX` (coredata-format.md §1.6).
                        indexes.append(
                            .init(
                                name: "Z_\(entity.name)_\(name)", columns: [column],
                                isFetchIndexStyle: true))
                    }
                } else if let relationship = entity.relationship(named: name) {
                    placedToOnes.append((entity, relationship, column))
                }
            }
        }

        for (entity, relationship, foreignKey) in placedToOnes {
            var columns = EntityLayout.ToOneColumns(foreignKey: foreignKey)
            foreignKeys.append(.init(name: foreignKey, type: "INTEGER"))
            let bareName = String(foreignKey.dropFirst())
            if parents.contains(relationship.destination),
                let destinationNumber = numbers[relationship.destination]
            {
                let entityColumn = names.claim("Z\(destinationNumber)_\(bareName)")
                columns.entityNumber = entityColumn
                foreignKeys.append(.init(name: entityColumn, type: "INTEGER"))
            }
            if let inverse = model.entity(named: relationship.destination)?
                .relationship(named: relationship.inverse),
                inverse.isToMany, inverse.isOrdered
            {
                let orderColumn = names.claim("Z_FOK_\(bareName)")
                columns.order = orderColumn
                orderColumns.append(.init(name: orderColumn, type: "INTEGER"))
            }
            toOne[entity.name, default: [:]][relationship.name] = columns
            foreignKeyIndexes.append(
                .init(name: "\(tableName)_\(foreignKey)_INDEX", columns: [foreignKey]))
        }

        for entity in tree {
            for constraint in entity.uniquenessConstraints where !constraint.isEmpty {
                let columns = constraint.compactMap { name in
                    attributeColumns[entity.name]?[name] ?? toOne[entity.name]?[name]?.foreignKey
                }
                indexes.append(
                    .init(
                        name: "Z_\(entity.name)_UNIQUE_\(constraint.joined(separator: "_"))",
                        columns: columns, isUnique: true, isFetchIndexStyle: true))
            }
        }

        // Fetch indexes (§1.6). R-tree ones are left out: Core Data builds
        // them as an SQLite `rtree` virtual table kept current by triggers, a
        // layout not verified against real stores. Core Data does not check a
        // store's indexes when it opens it, so the store stays compatible;
        // only spatial fetches lose their index.
        for entity in tree where !entity.indexes.isEmpty {
            let lineage = [entity] + model.ancestors(of: entity.name)
            func column(of property: String) -> String? {
                for owner in lineage {
                    if let column = attributeColumns[owner.name]?[property]
                        ?? toOne[owner.name]?[property]?.foreignKey
                    {
                        return column
                    }
                }
                return nil
            }
            for fetchIndex in entity.indexes where !fetchIndex.isRTree {
                let placed = fetchIndex.elements.compactMap { element in
                    column(of: element.property).map { ($0, element.order) }
                }
                guard !placed.isEmpty else { continue }
                indexes.append(
                    .init(
                        name: "Z_\(entity.name)_\(fetchIndex.name)", columns: placed.map(\.0),
                        isFetchIndexStyle: true,
                        descendingColumns: Set(placed.filter { $0.1 == .descending }.map(\.0))))
            }
        }

        var columns: [TableLayout.Column] = [
            .init(name: "Z_PK", type: "INTEGER", isPrimaryKey: true),
            .init(name: "Z_ENT", type: "INTEGER"),
            .init(name: "Z_OPT", type: "INTEGER"),
        ]
        columns += integerAttributes + foreignKeys + orderColumns
        for type in ["TIMESTAMP", "FLOAT", "DECIMAL", "VARCHAR", "BLOB"] {
            columns += typed[type] ?? []
        }
        var allIndexes: [TableLayout.Index] = []
        if tree.count > 1 {
            allIndexes.append(.init(name: "\(tableName)_Z_ENT_INDEX", columns: ["Z_ENT"]))
        }
        allIndexes += foreignKeyIndexes + indexes
        self.table = TableLayout(name: tableName, columns: columns, indexes: allIndexes)
        self.attributeColumns = attributeColumns
        self.toOne = toOne
    }

    /// The column of the attribute `name` declared by entity `owner`.
    func columnName(ofProperty name: String, declaredBy owner: String) -> String? {
        attributeColumns[owner]?[name]
    }
}
