import Foundation
import StrataCore
import StrataSchema
import StrataStore

/// Everything the importer needs about one entity, computed once per run:
/// its stored properties with their columns and rules, the `INSERT` it
/// prepares, and which property each input field writes.
package final class EntityImportPlan {
    /// A relationship with where it is kept.
    struct RelationshipSlot {
        /// The schema relationship.
        let relationship: Relationship
        /// For a to-one: its columns in the row (a row's cells are its
        /// columns, ``EntityRowLayout``).
        let toOne: EntityRowLayout.ToOne?
        /// The cell of a to-one's foreign key.
        var foreignKeyCell: Int? { toOne?.foreignKey }
        /// The cell of a to-one's `Z<n>_` entity column, when the table has one.
        var entityCell: Int? { toOne?.entity }
        /// The cell of a to-one's `Z_FOK_` order column, when its inverse is ordered.
        var orderCell: Int? { toOne?.order }
        /// For a to-many: how its destinations are found.
        let toMany: StoreMapping.ToManyMapping?
        /// For a many-to-many whose inverse is ordered too: the join table's
        /// column of the owner's place among each destination's inverse
        /// (both sides are written, as `Context.save` writes them).
        var inverseOrderColumn: String? = nil
    }

    /// The entity's name.
    let name: String
    /// `Z_ENT` of the entity in this store.
    let number: Int
    /// The store's numbers of the entity and its subentities.
    let treeNumbers: [Int]
    /// How the entity's rows are laid out: a row's cells are its columns.
    let layout: EntityRowLayout
    /// The table of the entity's rows.
    var table: String { layout.table }
    /// Every stored attribute (inherited ones included), sorted by name.
    let attributes: [Attribute]
    /// Every stored relationship (inherited ones included), sorted by name.
    let relationships: [RelationshipSlot]
    /// Each attribute's type, by index (read per field, so kept apart from
    /// the attributes, whose copies cost reference counting).
    let types: [AttributeType]
    /// Each attribute's own `dateFormat`, by index.
    let dateFormats: [String?]
    /// Each attribute's missing-value tokens, by index: ``ImportOptions/fieldNulls``
    /// for it, else ``ImportOptions/nulls`` unless it holds text.
    let nulls: [MissingValueTokens?]
    /// Each relationship's missing-value tokens, by index: a field that is
    /// one links nothing.
    let relationshipNulls: [MissingValueTokens?]
    /// The column of each cell: the attributes', then the to-ones'.
    let columns: [String]
    /// The full check of each attribute with rules (``AttributeCheck``:
    /// required, lengths, pattern, bounds), by index.
    let checks: [AttributeCheck?]
    /// The ``AttributeCheck/bounds`` of each attribute an import checks
    /// (``AttributeCheck/hasRules(_:)``), by index: plain numbers that
    /// settle the common value without touching the check.
    let bounds: [AttributeCheck.Bounds?]
    /// The indexes of the attributes with ``bounds``.
    let checkedAttributes: [Int]
    /// The attributes with defaults, by index: applied when a new row lacks them.
    let defaults: [(index: Int, value: AttributeDefault, externalStorage: Bool)]
    /// The attributes set to now on every write (`touch: "save"`).
    let touched: [Int]
    /// The key counter of the entity's tree, while a writer runs.
    var keyCounter: KeyAllocator.Counter?
    /// Rows of this entity inserted by the run.
    var insertedCount = 0
    /// Objects of this entity found or created by a `relatedBy` value in
    /// this run: key text → (primary key, entity number, whether the store
    /// had it before the run). Kept here, not in a dictionary of
    /// dictionaries, so a lookup hashes only the key.
    var relatedObjects: [ExactText: (key: Int64, entity: Int, isFromStore: Bool)] = [:]
    /// Values of the `relatedBy` attribute for which links by value made a
    /// new object because none belonged to nobody: an owner new in the run
    /// looks them up no more (see ``Importer/findOrCreate(_:in:attribute:for:at:deferIfImported:owner:)``).
    var ownedValues: Set<String> = []
    /// Objects of the store (not of this run) that records of the current
    /// transaction linked to: their `Z_OPT` is raised once at its commit,
    /// as Core Data raises it when an object's relationship changes.
    var linkedExistingKeys: Set<Int64> = []
    /// Attribute indexes of the unique key, when records upsert.
    let uniqueKey: [Int]?
    /// Whether a unique index of the store covers ``uniqueKey`` (lookups are
    /// then cheap in SQL; otherwise existing keys are read once).
    let isKeyIndexed: Bool

    /// Attributes computed by expressions, by attribute index.
    let computed: [(index: Int, attribute: ComputedAttribute)]
    /// The input fields the computations read (never "unknown").
    private let computedFields: Set<String>
    private let fieldMap: [String: String]
    private var targets: [String: FieldTarget?] = [:]
    private let foldedNames: [String: FieldTarget]

    init(
        entity: String, model: Model, mapping: StoreMapping, options: ImportOptions,
        indexedColumnSets: [Set<String>]
    ) throws {
        guard let entityMapping = mapping.entities[entity],
            let schemaEntity = model.entity(named: entity)
        else {
            throw ImportError(
                .structure, at: SourcePosition(file: ""),
                "the model has no entity '\(entity)' (entities: "
                    + model.entities.map(\.name).sorted().joined(separator: ", ") + ")")
        }
        name = entity
        self.model = model
        number = entityMapping.number
        treeNumbers = entityMapping.treeNumbers
        let layout = EntityRowLayout(entity: entity, model: model, tables: entityMapping)
        self.layout = layout
        attributes = layout.attributes
        types = attributes.map(\.type)
        dateFormats = attributes.map(\.dateFormat)
        nulls = attributes.map { attribute in
            if let own = options.fieldNulls[attribute.name] { return MissingValueTokens(own) }
            return attribute.type == .string || attribute.type == .uri
                ? nil : MissingValueTokens(options.nulls)
        }
        var slots: [RelationshipSlot] = []
        for relationship in model.allRelationships(of: entity) where !relationship.isTransient {
            if relationship.isToMany {
                guard let toMany = entityMapping.toMany[relationship.name] else { continue }
                var inverseOrder: String?
                if case .joinTable = toMany,
                    case .joinTable(_, _, _, let order?)? = mapping.entities[
                        relationship.destination]?.toMany[relationship.inverse]
                {
                    inverseOrder = order
                }
                slots.append(
                    RelationshipSlot(
                        relationship: relationship, toOne: nil, toMany: toMany,
                        inverseOrderColumn: inverseOrder))
            } else {
                guard
                    let toOne = layout.toOnes.first(where: {
                        $0.relationship.name == relationship.name
                    })
                else { continue }
                slots.append(
                    RelationshipSlot(
                        relationship: relationship, toOne: toOne, toMany: nil))
            }
        }
        relationships = slots
        relationshipNulls = slots.map {
            MissingValueTokens(options.fieldNulls[$0.relationship.name] ?? options.nulls)
        }
        columns = layout.columns
        defaults = attributes.enumerated().compactMap { index, attribute in
            attribute.defaultValue.map { (index, $0, attribute.allowsExternalStorage) }
        }
        let stored = attributes
        touched = stored.indices.filter { stored[$0].touchesOnSave }
        let checks = try attributes.map { try AttributeCheck($0) }
        self.checks = checks
        let bounds = attributes.indices.map { index in
            AttributeCheck.hasRules(stored[index]) ? checks[index]?.bounds : nil
        }
        self.bounds = bounds
        checkedAttributes = bounds.indices.filter { bounds[$0] != nil }

        fieldMap = options.fieldMap
        var computed: [(index: Int, attribute: ComputedAttribute)] = []
        for computation in options.computed {
            guard let index = attributes.firstIndex(where: { $0.name == computation.attribute })
            else {
                throw ImportError(
                    .structure, at: SourcePosition(file: ""),
                    "compute names '\(computation.attribute)', which is not a stored attribute of \(entity)"
                )
            }
            computed.append((index, computation))
        }
        self.computed = computed
        computedFields = Set(options.computed.flatMap(\.fields))
        var folded: [String: FieldTarget] = [:]
        for (index, slot) in slots.enumerated() {
            folded[FieldNameFolding.fold(slot.relationship.name)] = .relationship(index)
        }
        for (index, attribute) in attributes.enumerated() {
            for key in attribute.importKeys {
                folded[FieldNameFolding.fold(key)] = .attribute(index)
            }
        }
        for (index, attribute) in attributes.enumerated() {
            folded[FieldNameFolding.fold(attribute.name)] = .attribute(index)
        }
        foldedNames = folded

        let keyNames = options.uniqueKey ?? schemaEntity.uniquenessConstraints.first
        if let keyNames, !keyNames.isEmpty {
            var key: [Int] = []
            for keyName in keyNames {
                guard let index = attributes.firstIndex(where: { $0.name == keyName }) else {
                    throw ImportError(
                        .structure, at: SourcePosition(file: ""),
                        "the unique key names '\(keyName)', which is not a stored attribute of \(entity)"
                    )
                }
                key.append(index)
            }
            uniqueKey = key
            let keyColumns = Set(key.map { layout.columns[$0] })
            isKeyIndexed = indexedColumnSets.contains { $0 == keyColumns }
        } else {
            uniqueKey = nil
            isKeyIndexed = false
        }
    }

    /// The slot of this (destination) entity's to-one that is
    /// `relationship`'s inverse: an object of this entity then belongs to
    /// at most one object through `relationship` (a one-to-many or
    /// one-to-one pair). Nil when the inverse is a to-many or there is none.
    func owningSlot(of relationship: Relationship) -> Int? {
        guard !relationship.inverse.isEmpty else { return nil }
        return relationships.firstIndex {
            $0.relationship.name == relationship.inverse && !$0.relationship.isToMany
                && $0.foreignKeyCell != nil
        }
    }

    /// The number of cells of a row.
    var cellCount: Int { columns.count }

    /// The property input field `field` writes, or nil when it matches none.
    ///
    /// Looked up in order: the explicit field map, the exact name of a
    /// property, the exact name of an `importKeys` entry, then names folded
    /// (case, spaces, `_`, `-` ignored).
    func target(forField field: String) -> FieldTarget? {
        if let known = targets[field] { return known }
        let target = resolve(field)
        targets[field] = target
        return target
    }

    private func resolve(_ field: String) -> FieldTarget? {
        if field == FieldNameFolding.rejectReasonField || field == Self.idField { return .ignored }
        let target = resolveName(field)
        // A computed attribute takes its value from its expression only.
        if case .attribute(let index)? = target, computed.contains(where: { $0.index == index }) {
            return .ignored
        }
        if target == nil, computedFields.contains(field) { return .ignored }
        return target
    }

    private func resolveName(_ field: String) -> FieldTarget? {
        var wanted = field
        if let mapped = fieldMap[field] {
            if mapped.isEmpty { return .ignored }
            wanted = mapped
        }
        if let index = attributes.firstIndex(where: { $0.name == wanted }) {
            return .attribute(index)
        }
        if let index = relationships.firstIndex(where: { $0.relationship.name == wanted }) {
            return .relationship(index)
        }
        if let index = attributes.firstIndex(where: { $0.importKeys.contains(wanted) }) {
            return .attribute(index)
        }
        if let found = foldedNames[FieldNameFolding.fold(wanted)] { return found }
        return keyPathTarget(wanted)
    }

    /// The field that gives a record's object id (`strata export --ids`).
    static let idField = "_id"

    /// The destination attribute each key-path field links by, by field name.
    private var linkAttributes: [String: String] = [:]
    /// The model, for the destinations of key-path fields.
    private let model: Model

    /// The attribute of the destination a field named by a key path
    /// (`species.name`) links by; nil for a field that names none.
    func linkAttribute(forField field: String) -> String? {
        _ = target(forField: field)
        return linkAttributes[field]
    }

    /// `relationship.attribute` — a to-one or to-many of this entity (its
    /// name exact or folded) and an attribute of its destination: the field
    /// links by that attribute, as `strata export --fields species.name`
    /// writes it.
    private func keyPathTarget(_ field: String) -> FieldTarget? {
        guard let dot = field.firstIndex(of: ".") else { return nil }
        let head = String(field[..<dot])
        let rest = String(field[field.index(after: dot)...])
        guard
            let index = relationships.firstIndex(where: {
                $0.relationship.name == head
                    || FieldNameFolding.fold($0.relationship.name) == FieldNameFolding.fold(head)
            }),
            let attribute = model.allAttributes(of: relationships[index].relationship.destination)
                .first(where: { $0.name == rest && !$0.isTransient })
        else { return nil }
        linkAttributes[field] = attribute.name
        return .relationship(index)
    }

    /// The names a field could have matched, for "unknown field" messages.
    var propertyNames: String {
        (attributes.map(\.name) + relationships.map(\.relationship.name)).sorted()
            .joined(separator: ", ")
    }
}
