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
/// layout.entity(named: "Medium")?.toOneColumns["diaryEntry"]?.foreignKey  // "ZDIARYENTRY"
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
        let numbering = model.entitiesInNumberingOrder
        var numbers: [String: Int] = [:]
        for (index, entity) in numbering.enumerated() { numbers[entity.name] = index + 1 }

        let joinTables = StoreLayout.joinTables(of: model, numbers: numbers)
        var joinTableByRelationship: [String: [String: String]] = [:]
        for join in joinTables {
            for side in [join.namingSide, join.inverseSide] {
                joinTableByRelationship[side.entity, default: [:]][side.relationship] = join.name
            }
        }

        var tables: [TableLayout] = []
        var columnsByEntity: [String: RootTableColumns] = [:]
        let roots = Dictionary(grouping: numbering) {
            model.rootEntity(of: $0.name)?.name ?? $0.name
        }
        for root in numbering where roots[root.name] != nil {
            let tree = roots[root.name] ?? []
            let columns = RootTableColumns(root: root, tree: tree, model: model, numbers: numbers)
            tables.append(columns.table)
            for entity in tree { columnsByEntity[entity.name] = columns }
        }

        self.entities = numbering.map { entity in
            StoreLayout.entityLayout(
                entity, model: model, numbers: numbers, columns: columnsByEntity[entity.name],
                joinTables: joinTableByRelationship)
        }
        self.entityTables = tables
        self.joinTables = joinTables
    }

    /// The layout of the entity named `name`, if the model has one.
    public func entity(named name: String) -> EntityLayout? {
        entities.first { $0.name == name }
    }

    /// The table name of a root entity: `Z` followed by its upper-cased name.
    public static func tableName(ofRoot name: String) -> String {
        "Z" + name.uppercased()
    }
}

// MARK: - Entities

extension StoreLayout {
    /// Where `entity`'s properties live, inherited ones included.
    fileprivate static func entityLayout(
        _ entity: Entity, model: Model, numbers: [String: Int], columns: RootTableColumns?,
        joinTables: [String: [String: String]]
    ) -> EntityLayout {
        let root = model.rootEntity(of: entity.name) ?? entity
        let lineage = [entity] + model.ancestors(of: entity.name)
        func declaringEntity(of property: String) -> String {
            lineage.first { owner in
                owner.attribute(named: property) != nil
                    || owner.relationship(named: property) != nil
            }?.name ?? entity.name
        }

        var attributeColumns: [String: String] = [:]
        for attribute in model.allAttributes(of: entity.name) where !attribute.isTransient {
            let owner = declaringEntity(of: attribute.name)
            if let column = columns?.columnName(ofProperty: attribute.name, declaredBy: owner) {
                attributeColumns[attribute.name] = column
            }
        }
        var toOneColumns: [String: EntityLayout.ToOneColumns] = [:]
        for relationship in model.allRelationships(of: entity.name)
        where !relationship.isTransient && !relationship.isToMany {
            let owner = declaringEntity(of: relationship.name)
            if let placed = columns?.toOne[owner]?[relationship.name] {
                toOneColumns[relationship.name] = placed
            }
        }
        // Many-to-many relationships declared by ancestors apply here too;
        // the nearest declaration wins.
        var entityJoinTables: [String: String] = [:]
        for owner in lineage {
            entityJoinTables.merge(joinTables[owner.name] ?? [:]) { nearest, _ in nearest }
        }
        return EntityLayout(
            name: entity.name,
            number: numbers[entity.name] ?? 0,
            superNumber: entity.parent.flatMap { numbers[$0] } ?? 0,
            rootName: root.name,
            tableName: tableName(ofRoot: root.name),
            isAbstract: entity.isAbstract,
            treeNumbers: model.entityTree(rootedAt: entity.name).compactMap { numbers[$0.name] },
            attributeColumns: attributeColumns,
            toOneColumns: toOneColumns,
            joinTables: entityJoinTables)
    }
}
