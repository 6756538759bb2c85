import StrataSchema
import StrataStore

/// The columns one entity's bundle lines are written to, as its
/// ``EntityRowLayout`` lays them out: the attribute columns (one *slot*
/// each), then each to-one's key (and entity number) column. Read-only once
/// made, so the thread decoding lines and the one inserting rows share it.
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

    /// How the entity's rows are laid out.
    let layout: EntityRowLayout
    /// The entity's name.
    var entity: String { layout.entity }
    /// The store's number of the entity (`Z_ENT`).
    var number: Int { layout.number }
    /// The table rows go into.
    var table: String { layout.table }
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
    /// The parameter of each to-one's key in the layout's `INSERT`.
    let toOneParameters: [Int32]
    /// The parameter of each to-one's entity column, when the table has one.
    let toOneEntityParameters: [Int32?]

    /// The columns of `entity` of `model` as `mapping` lays them out.
    ///
    /// - Throws: ``ContextError`` (`invalidSchema`) for a pattern that does
    ///   not compile.
    init(entity: String, model: Model, mapping: StoreMapping.EntityMapping) throws {
        let layout = EntityRowLayout(entity: entity, model: model, tables: mapping)
        self.layout = layout
        var attributes: [AttributeSlot] = []
        var checks: [(slot: Int, check: AttributeCheck)] = []
        for attribute in layout.attributes {
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
        }
        let toOne = layout.toOnes.map(\.relationship)
        let toMany = model.allRelationships(of: entity).filter {
            $0.isToMany && !$0.isTransient
        }
        self.attributes = attributes
        self.checks = checks
        checkBounds = checks.map { ($0.slot, $0.check.bounds) }
        attributeColumns = Array(layout.columns[..<attributes.count])
        attributeSlots = Self.slots(attributes.map(\.name))
        toOneRelationships = toOne
        toOneSlots = Self.slots(toOne.map(\.name))
        toManyRelationships = toMany
        toManySlots = Self.slots(toMany.map(\.name))
        toOneParameters = layout.toOnes.map { EntityRowLayout.parameter(ofColumn: $0.foreignKey) }
        toOneEntityParameters = layout.toOnes.map {
            $0.entity.map(EntityRowLayout.parameter(ofColumn:))
        }
    }

    private static func slots(_ names: [String]) -> [String: Int] {
        Dictionary(names.enumerated().map { ($0.element, $0.offset) }) { first, _ in first }
    }
}
