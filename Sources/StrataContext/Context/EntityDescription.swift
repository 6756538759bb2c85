import Foundation
import StrataCore
import StrataQuery
import StrataSchema
import StrataStore

/// Everything the context needs to know about one entity at run time: its
/// properties (inherited ones included) with fast index lookup, and where its
/// rows live in the store.
package final class EntityDescription {
    /// The entity's name.
    let name: String
    /// The schema entity.
    let entity: Entity
    /// Every attribute, inherited ones included, sorted by name.
    let attributes: [Attribute]
    /// Index into ``attributes`` by name.
    let attributeIndex: [String: Int]
    /// Every relationship, inherited ones included, sorted by name.
    let relationships: [Relationship]
    /// Index into ``relationships`` by name.
    let relationshipIndex: [String: Int]
    /// Where the entity lives in the store.
    let mapping: StoreMapping.EntityMapping
    /// `Z_ENT` of this entity in the store.
    var number: Int { mapping.number }
    /// The store's number of the root of the entity's tree (its `Z_MAX` row).
    let rootNumber: Int
    /// The name of the root of the entity's tree (``KeyAllocator``'s key).
    var rootName: String { layout.rootName }
    /// The stored attributes a row writes, in column order: index and
    /// whether values carry the external-storage marker.
    let storedAttributes: [(index: Int, externalStorage: Bool)]
    /// Each attribute's type, by index (checked on every set).
    let attributeTypes: [AttributeType]
    /// The defaults made afresh for each insert (`now`, `uuid`); the literal
    /// ones are in ``insertionTemplate``.
    private let freshDefaults: [(index: Int, value: AttributeDefault)]
    /// The state a new object starts from: literal defaults set, to-many
    /// relationships empty rather than unloaded; nil when that is a state
    /// with no values and no relationships, made faster than copied.
    private let insertionTemplate: ObjectState?
    /// Whether a new object starts with no values and no relationships
    /// (``insertionTemplate`` is nil and there are no fresh defaults).
    private let insertsEmpty: Bool
    /// Whether the entity is abstract (has no instances of its own).
    let isAbstract: Bool
    /// The attributes refreshed on every save (`touch: "save"`).
    let touchedOnSave: [Int]
    /// The rules of the stored attributes that have any (``AttributeCheck``),
    /// with their index, checked for every changed object at save.
    let attributeChecks: [(index: Int, check: AttributeCheck)]
    /// The ``AttributeCheck/bounds`` of each of ``attributeChecks``, in the
    /// same order: plain numbers that settle the common value without
    /// touching the check (no reference counting per value).
    let attributeBounds: [AttributeCheck.Bounds]
    /// Each attribute's name, by index (scanned on every get and set).
    let attributeNames: [String]
    /// For each attribute index, the attribute looked up after it last
    /// time (the last slot: after none yet); ``attribute(_:)`` tries that
    /// one first, since code setting several values of each object sets
    /// them in the same order. Unchecked for exclusivity: a description
    /// belongs to one context, used from one thread, and no access nests.
    @exclusivity(unchecked) private var followingAttribute: [Int]
    /// The attribute looked up last (``attributeNames``' count for none).
    @exclusivity(unchecked) private var lastAttribute: Int
    /// The to-one relationships a row writes, with their indexes and
    /// whether the table keeps the destination's entity number.
    let storedToOnes: [(index: Int, hasEntityColumn: Bool)]
    /// How the entity's rows are laid out: the columns of
    /// ``storedAttributes`` then of ``storedToOnes``, in that order.
    package let layout: EntityRowLayout
    /// The columns a fetch reads, from the table aliased `t0`: Z_PK, Z_ENT,
    /// Z_OPT, each attribute (NULL when not stored), then each to-one's key
    /// and entity columns (see `Context.materialize`).
    let selectColumns: [RowColumn]
    /// The state of an object with no values, copied for each fetched row.
    let emptyState: ObjectState
    /// The class of the entity's objects: a generated subclass once the
    /// context has registered it (see `Context.register(_:)`).
    var objectClass: ManagedObject.Type = ManagedObject.self

    init(entity: Entity, model: Model, mapping: StoreMapping.EntityMapping, rootNumber: Int) throws
    {
        self.name = entity.name
        self.entity = entity
        self.attributes = model.allAttributes(of: entity.name)
        // A model built in code may repeat a name; the first one wins.
        self.attributeIndex = Dictionary(
            attributes.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { first, _ in first })
        self.relationships = model.allRelationships(of: entity.name)
        self.relationshipIndex = Dictionary(
            relationships.enumerated().map { ($1.name, $0) },
            uniquingKeysWith: { first, _ in first })
        self.mapping = mapping
        self.rootNumber = rootNumber
        // Core Data stores any date: the range of the store's text formats
        // is not a rule of a save, so dates without bounds are not checked.
        let ruled = self.attributes
        let checks: [(Int, AttributeCheck)]
        do {
            checks = try ruled.indices.compactMap { index -> (Int, AttributeCheck)? in
                guard AttributeCheck.hasRules(ruled[index]),
                    let check = try AttributeCheck(ruled[index])
                else { return nil }
                return (index, check)
            }
        } catch let error as RegexError {
            // A model the schema validator has not seen: its pattern is the
            // context's schema problem.
            throw ContextError(.invalidSchema, "\(error)")
        }
        self.attributeChecks = checks
        self.attributeBounds = checks.map(\.1.bounds)

        let layout = EntityRowLayout(entity: entity.name, model: model, tables: mapping)
        self.layout = layout
        let attributes = self.attributes
        let attributeIndex = self.attributeIndex
        self.storedAttributes = layout.attributes.compactMap { attribute in
            attributeIndex[attribute.name].map { ($0, attribute.allowsExternalStorage) }
        }
        let relationshipIndex = self.relationshipIndex
        self.storedToOnes = layout.toOnes.compactMap { toOne in
            relationshipIndex[toOne.relationship.name].map { ($0, toOne.entity != nil) }
        }
        self.attributeTypes = attributes.map(\.type)
        let defaults = attributes.enumerated().compactMap { index, attribute in
            attribute.defaultValue.map { (index, $0) }
        }
        self.touchedOnSave = attributes.indices.filter { attributes[$0].touchesOnSave }
        self.attributeNames = attributes.map(\.name)
        self.followingAttribute = attributes.indices.map { $0 + 1 } + [0]
        self.lastAttribute = attributes.count

        var selected: [RowColumn] = [.key, .entity, .version]
        for attribute in attributes {
            selected.append(
                mapping.attributeColumns[attribute.name] == nil ? .null : .attribute(attribute.name)
            )
        }
        for relationship in relationships where !relationship.isToMany {
            if mapping.toOne[relationship.name] != nil {
                selected += [.toOne(relationship.name), .toOneEntity(relationship.name)]
            } else {
                selected += [.null, .null]
            }
        }
        self.emptyState = ObjectState(
            attributeCount: attributes.count, relationshipCount: relationships.count)
        var insertionState = emptyState
        var freshDefaults: [(index: Int, value: AttributeDefault)] = []
        for (index, value) in defaults {
            if case .literal(let literal) = value {
                insertionState.values[index] = literal
            } else {
                freshDefaults.append((index, value))
            }
        }
        for (index, relationship) in relationships.enumerated() where relationship.isToMany {
            insertionState.toMany[index] = []
        }
        self.insertionTemplate =
            relationships.isEmpty && defaults.count == freshDefaults.count ? nil : insertionState
        self.freshDefaults = freshDefaults
        self.insertsEmpty = insertionTemplate == nil && freshDefaults.isEmpty
        self.isAbstract = entity.isAbstract
        self.selectColumns = selected
    }

    /// The state of a new object: every default applied (`now` and `uuid`
    /// made afresh), to-many relationships empty.
    @inline(__always)  // Made in place in the object.
    func insertionState() -> ObjectState {
        guard !insertsEmpty else {
            return ObjectState(
                values: AttributeValues(count: attributeTypes.count), toOne: [], toMany: [],
                version: 0)
        }
        return defaultedInsertionState()
    }

    /// ``insertionState()`` of an entity with defaults or relationships.
    private func defaultedInsertionState() -> ObjectState {
        var state =
            insertionTemplate
            ?? ObjectState(
                values: AttributeValues(count: attributeTypes.count), toOne: [], toMany: [],
                version: 0)
        if !freshDefaults.isEmpty {
            let now = Date().timeIntervalSinceReferenceDate
            for (index, value) in freshDefaults {
                switch value {
                case .literal(let value): state.values[index] = value
                case .now: state.values[index] = .date(now)
                case .uuid: state.values[index] = .uuid(UUID())
                }
            }
        }
        return state
    }

    /// Whether the entity's objects are of class `type`.
    func hasClass(_ type: ManagedObject.Type) -> Bool {
        ObjectIdentifier(objectClass) == ObjectIdentifier(type)
    }

    /// The description of objects a generated class's `init(context:)`
    /// made without a context to insert them into (they only read as
    /// empty): no properties, no table.
    static func detached() throws -> EntityDescription {
        let entity = Entity(name: "")
        return try EntityDescription(
            entity: entity, model: Model(name: "", version: 0, entities: [entity]),
            mapping: StoreMapping.EntityMapping(
                name: "", number: 0, treeNumbers: [], table: "", attributeColumns: [:],
                toOne: [:], toMany: [:]),
            rootNumber: 0)
    }

    /// A new object of this entity, of ``objectClass``.
    func makeObject(id: ObjectID, link: ContextLink, state: consuming ObjectState) -> ManagedObject
    {
        guard objectClass == ManagedObject.self else {
            let object = objectClass.init(
                ObjectSeed(id: id, description: self, link: link, isNew: false))
            object.state = state
            return object
        }
        return ManagedObject(self, id: id, link: link, state: state)
    }

    /// The index of attribute `key`, or an error naming the entity.
    @inline(__always)  // The guess, once per value set; the search stays apart.
    package func attribute(_ key: String) throws -> Int {
        let guess = followingAttribute[lastAttribute]
        if guess < attributeNames.count, attributeNames[guess] == key {
            lastAttribute = guess
            return guess
        }
        return try searchAttribute(key)
    }

    /// ``attribute(_:)`` when the guess missed: found by name, and remembered
    /// as the one following the last.
    private func searchAttribute(_ key: String) throws -> Int {
        let index = try findAttribute(key)
        followingAttribute[lastAttribute] = index
        lastAttribute = index
        return index
    }

    /// The index of attribute `key`, found by name.
    private func findAttribute(_ key: String) throws -> Int {
        // For the usual handful of attributes a scan of short, inline strings
        // beats hashing the key.
        if attributeNames.count <= 12 {
            for index in attributeNames.indices where attributeNames[index] == key { return index }
        }
        guard let index = attributeIndex[key] else {
            if relationshipIndex[key] != nil {
                throw ContextError(
                    .wrongPropertyKind, "\(name).\(key) is a relationship, not an attribute")
            }
            throw ContextError(.unknownProperty, "\(name) has no attribute '\(key)'")
        }
        return index
    }

    /// The index of relationship `key`, or an error naming the entity.
    package func relationship(_ key: String) throws -> Int {
        guard let index = relationshipIndex[key] else {
            if attributeIndex[key] != nil {
                throw ContextError(
                    .wrongPropertyKind, "\(name).\(key) is an attribute, not a relationship")
            }
            throw ContextError(.unknownProperty, "\(name) has no relationship '\(key)'")
        }
        return index
    }
}
