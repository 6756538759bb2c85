/// Everything the context needs to know about one entity at run time: its
/// properties (inherited ones included) with fast index lookup, and where its
/// rows live in the store.
final class EntityDescription {
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
    /// The store's number of the root of the entity's tree (its `Z_MAX` row).
    let rootNumber: Int
    /// Compiled `pattern`s, by attribute index.
    let patterns: [Int: NSRegularExpressionBox]

    init(entity: Entity, model: Model, mapping: StoreMapping.EntityMapping, rootNumber: Int) throws
    {
        self.name = entity.name
        self.entity = entity
        self.attributes = model.allAttributes(of: entity.name)
        self.attributeIndex = Dictionary(
            uniqueKeysWithValues: attributes.enumerated().map { ($1.name, $0) })
        self.relationships = model.allRelationships(of: entity.name)
        self.relationshipIndex = Dictionary(
            uniqueKeysWithValues: relationships.enumerated().map { ($1.name, $0) })
        self.mapping = mapping
        self.rootNumber = rootNumber
        var patterns: [Int: NSRegularExpressionBox] = [:]
        for (index, attribute) in attributes.enumerated() {
            if let pattern = attribute.pattern {
                patterns[index] = try NSRegularExpressionBox(pattern: pattern)
            }
        }
        self.patterns = patterns
    }

    /// The index of attribute `key`, or an error naming the entity.
    func attribute(_ key: String) throws -> Int {
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
    func relationship(_ key: String) throws -> Int {
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
