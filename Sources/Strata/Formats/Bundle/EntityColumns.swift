/// The columns one entity's bundle lines are written to, in the order of
/// its `INSERT` (``EntityInsert``): `Z_PK`, `Z_ENT`, `Z_OPT`, the attribute
/// columns (one *slot* each), then each to-one's key (and entity number)
/// column. Read-only once made, so the thread decoding lines and the one
/// inserting rows share it.
final class EntityColumns: @unchecked Sendable {
    /// What a line's value of one attribute is checked against.
    struct AttributeSlot {
        let name: String
        let type: AttributeType
        let isOptional: Bool
        /// Kept in the store with Core Data's external-storage marker byte.
        let allowsExternalStorage: Bool
        /// May name a `media/` file of the bundle instead of holding base64.
        let takesMediaFile: Bool
    }

    /// The entity's name.
    let entity: String
    /// The store's number of the entity (`Z_ENT`).
    let number: Int
    /// The table rows go into.
    let table: String
    /// The stored attributes, by slot.
    let attributes: [AttributeSlot]
    /// The column of each attribute, by slot.
    let attributeColumns: [String]
    /// The slot of each attribute, by name.
    let attributeSlots: [String: Int]
    /// The rules of the attributes that have any, by slot, in slot order
    /// (checked on every line: attributes without rules cost nothing).
    let checks: [(slot: Int, check: AttributeCheck)]
    /// The ``AttributeCheck/bounds`` of each of ``checks``, with its slot:
    /// what a line is checked against first.
    let checkBounds: [(slot: Int, bounds: AttributeCheck.Bounds)]
    /// The to-one relationships with columns, by slot.
    let toOneRelationships: [Relationship]
    /// The slot of each to-one, by name.
    let toOneSlots: [String: Int]
    /// The to-many relationships, by slot.
    let toManyRelationships: [Relationship]
    /// The slot of each to-many, by name.
    let toManySlots: [String: Int]
    /// The columns of the `INSERT`, quoted, in order.
    let insertColumns: [String]
    /// The parameter of each to-one's key; its entity column (when the
    /// table has one) is the next.
    let toOneParameters: [Int32]
    /// Whether each to-one has an entity column.
    let toOneHasEntityColumn: [Bool]

    /// The columns of `entity` of `model` as `mapping` lays them out.
    ///
    /// - Throws: ``ContextError`` (`invalidSchema`) for a pattern that does
    ///   not compile.
    init(entity: String, model: Model, mapping: StoreMapping.EntityMapping, number: Int) throws {
        self.entity = entity
        self.number = number
        table = mapping.table
        let quoted = SQLiteIdentifier.quoted
        var attributeColumns: [String] = []
        var columns = ["Z_PK", "Z_ENT", "Z_OPT"]
        var attributes: [AttributeSlot] = []
        var checks: [(slot: Int, check: AttributeCheck)] = []
        for attribute in model.allAttributes(of: entity) where !attribute.isTransient {
            guard let column = mapping.attributeColumns[attribute.name] else { continue }
            if let check = try AttributeCheck(attribute) {
                checks.append((attributes.count, check))
            }
            let binary = attribute.type == .binary || attribute.type == .transformable
            attributes.append(
                AttributeSlot(
                    name: attribute.name, type: attribute.type, isOptional: attribute.isOptional,
                    allowsExternalStorage: attribute.allowsExternalStorage,
                    takesMediaFile: binary && (attribute.isMedia || attribute.allowsExternalStorage)
                ))
            attributeColumns.append(column)
            columns.append(quoted(column))
        }
        var toOne: [Relationship] = []
        var toMany: [Relationship] = []
        var toOneParameters: [Int32] = []
        var hasEntityColumn: [Bool] = []
        for relationship in model.allRelationships(of: entity) where !relationship.isTransient {
            if relationship.isToMany {
                toMany.append(relationship)
                continue
            }
            guard let columnsOfOne = mapping.toOne[relationship.name] else { continue }
            toOne.append(relationship)
            columns.append(quoted(columnsOfOne.foreignKey))
            toOneParameters.append(Int32(columns.count))
            if let entityColumn = columnsOfOne.entityColumn {
                columns.append(quoted(entityColumn))
                hasEntityColumn.append(true)
            } else {
                hasEntityColumn.append(false)
            }
        }
        self.attributes = attributes
        self.checks = checks
        checkBounds = checks.map { ($0.slot, $0.check.bounds) }
        self.attributeColumns = attributeColumns
        attributeSlots = Self.slots(attributes.map(\.name))
        toOneRelationships = toOne
        toOneSlots = Self.slots(toOne.map(\.name))
        toManyRelationships = toMany
        toManySlots = Self.slots(toMany.map(\.name))
        insertColumns = columns
        self.toOneParameters = toOneParameters
        toOneHasEntityColumn = hasEntityColumn
    }

    private static func slots(_ names: [String]) -> [String: Int] {
        Dictionary(names.enumerated().map { ($0.element, $0.offset) }) { first, _ in first }
    }
}
