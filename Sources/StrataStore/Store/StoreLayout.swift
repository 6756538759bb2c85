import StrataSchema

/// The complete SQL layout Core Data derives from a model: entity numbers,
/// one table per inheritance root, column names, foreign keys, join tables
/// and indexes (coredata-format.md §1.2–1.6), fetch indexes included
/// (`Z_<Entity>_<name>`; R-tree ones are left out, see `RootTableColumns`).
///
/// The layout is computed from the model alone, so a store Strata writes has
/// exactly the tables and columns Core Data would create for the same model.
///
/// ```swift
/// let layout = StoreLayout(model: diary)
/// let key = layout.entity(named: "Medium")?.toOneColumns["diaryEntry"]?.foreignKey  // "ZDIARYENTRY"
/// print(layout.createStatements.joined(separator: "\n"))
/// ```
public struct StoreLayout: Hashable, Sendable {
    /// The model the layout was computed from.
    public let model: Model
    /// Every entity, in entity-number order.
    public let entities: [EntityLayout]
    /// One table per root entity, in entity-number order of the roots.
    public let entityTables: [TableLayout]
    /// One join table per many-to-many relationship pair.
    public let joinTables: [JoinTableLayout]

    /// Computes the layout of `model`.
    ///
    /// The model should have passed validation; for a model that has not,
    /// properties that cannot be placed (a missing destination, say) are
    /// skipped rather than trapping.
    public init(model: Model) {
        self.model = model
        // Everything below is linear in the model's size (plus the inherited
        // columns each entity lists), so models of thousands of entities or
        // chains thousands deep lay out at once.
        let forest = InheritanceForest(model)
        let numbering = forest.order
        var numbers: [String: Int] = [:]
        for (name, index) in forest.position { numbers[name] = index + 1 }

        let joinTables = StoreLayout.joinTables(of: model, numbers: numbers)
        var joinTableByRelationship: [String: [String: String]] = [:]
        for join in joinTables {
            // A to-many without an inverse has a nameless other side.
            for side in [join.namingSide, join.inverseSide] where !side.relationship.isEmpty {
                joinTableByRelationship[side.entity, default: [:]][side.relationship] = join.name
            }
        }

        // One table per root: its subtree is a contiguous run of the numbering.
        let parents = Set(model.entities.compactMap { $0.parent == $0.name ? nil : $0.parent })
        var tables: [TableLayout] = []
        var columnsByPosition: [RootTableColumns?] = Array(repeating: nil, count: numbering.count)
        for (index, root) in numbering.enumerated() where forest.parent[index] == nil {
            let subtree = forest.subtree(at: index)
            let columns = RootTableColumns(
                root: root, tree: Array(numbering[subtree]), model: model, numbers: numbers,
                parents: parents)
            tables.append(columns.table)
            for member in subtree { columnsByPosition[member] = columns }
        }

        var entities: [EntityLayout] = []
        entities.reserveCapacity(numbering.count)
        var inherited: [StoreLayout.InheritedColumns] = []
        inherited.reserveCapacity(numbering.count)
        for (index, entity) in numbering.enumerated() {
            let parent = forest.parent[index]
            let placed = StoreLayout.InheritedColumns(
                entity, inheriting: parent.map { inherited[$0] },
                columns: columnsByPosition[index], joinTables: joinTableByRelationship)
            inherited.append(placed)
            let root = numbering[forest.root(of: index)]
            entities.append(
                EntityLayout(
                    name: entity.name,
                    number: index + 1,
                    superNumber: entity.parent.flatMap { numbers[$0] } ?? 0,
                    rootName: root.name,
                    tableName: StoreLayout.tableName(ofRoot: root.name),
                    isAbstract: entity.isAbstract,
                    treeNumbers: forest.subtree(at: index).map { $0 + 1 },
                    attributeColumns: placed.attributeColumns,
                    toOneColumns: placed.toOneColumns,
                    joinTables: placed.joinTables))
        }
        self.entities = entities
        self.entityTables = tables
        self.joinTables = joinTables
        var positions: [String: Int] = [:]
        for (index, entity) in entities.enumerated() where positions[entity.name] == nil {
            positions[entity.name] = index
        }
        self.positions = positions
    }

    /// The index in `entities` of each entity name.
    let positions: [String: Int]

    /// The layout of the entity named `name`, if the model has one.
    public func entity(named name: String) -> EntityLayout? {
        positions[name].map { entities[$0] }
    }

    /// The table name of a root entity: `Z` followed by its upper-cased name.
    public static func tableName(ofRoot name: String) -> String {
        "Z" + name.uppercased()
    }
}

// MARK: - Entities

extension StoreLayout {
    /// Where an entity's stored properties live, inherited ones included:
    /// its parent's, less what the entity redeclares, plus its own.
    fileprivate struct InheritedColumns {
        var attributeColumns: [String: String] = [:]
        var toOneColumns: [String: EntityLayout.ToOneColumns] = [:]
        var joinTables: [String: String] = [:]

        init(
            _ entity: Entity, inheriting parent: InheritedColumns?, columns: RootTableColumns?,
            joinTables: [String: [String: String]]
        ) {
            if let parent {
                attributeColumns = parent.attributeColumns
                toOneColumns = parent.toOneColumns
                self.joinTables = parent.joinTables
            }
            // A redeclared name (a model that failed validation) hides the
            // inherited property, whatever its kind.
            for name in entity.attributes.map(\.name) + entity.relationships.map(\.name) {
                attributeColumns[name] = nil
                toOneColumns[name] = nil
            }
            for attribute in entity.attributes where !attribute.isTransient {
                if let column = columns?.columnName(
                    ofProperty: attribute.name, declaredBy: entity.name)
                {
                    attributeColumns[attribute.name] = column
                }
            }
            for relationship in entity.relationships
            where !relationship.isTransient && !relationship.isToMany {
                if let placed = columns?.toOne[entity.name]?[relationship.name] {
                    toOneColumns[relationship.name] = placed
                }
            }
            // Many-to-many relationships declared by ancestors apply here
            // too; the nearest declaration wins.
            self.joinTables.merge(joinTables[entity.name] ?? [:]) { _, own in own }
        }
    }
}
