import StrataSchema

/// The relationships of a model as a diagram draws them: each declared
/// relationship once, an inverse pair as one.
///
/// Two relationships are a pair when each names the other as its inverse
/// and each is found on the other's destination (or an ancestor of it). A
/// relationship without an inverse, or whose inverse does not name it back,
/// stands alone.
struct ModelEdges: Sendable {
    /// A relationship where it is declared.
    struct Declared: Sendable {
        /// The declaring entity.
        var entity: String
        /// Its position among the entity's own relationships (the row).
        var index: Int
        var relationship: Relationship
        /// The other side of the pair, if it is one.
        var inverse: Side?
    }

    /// The other side of an inverse pair.
    struct Side: Sendable {
        var entity: String
        var index: Int
        var relationship: Relationship
    }

    /// One entry per edge, in entity then relationship order: a pair
    /// appears once, under its first side.
    let relationships: [Declared]
    /// The index of each entity in `model.entities`.
    let position: [String: Int]

    init(_ model: Model) {
        var position: [String: Int] = [:]
        for (index, entity) in model.entities.enumerated() where position[entity.name] == nil {
            position[entity.name] = index
        }
        self.position = position
        struct Key: Hashable {
            var entity: String
            var name: String
        }
        // Where the relationship `name` of `entityName` or an ancestor is declared.
        func declaration(_ name: String, from entityName: String) -> Side? {
            for entity in [model.entity(named: entityName)].compactMap({ $0 })
                + model.ancestors(of: entityName)
            {
                if let index = entity.relationships.firstIndex(where: { $0.name == name }) {
                    return Side(
                        entity: entity.name, index: index, relationship: entity.relationships[index]
                    )
                }
            }
            return nil
        }
        func inverse(of relationship: Relationship) -> Side? {
            guard relationship.hasInverse else { return nil }
            return declaration(relationship.inverse, from: relationship.destination)
        }
        var drawn: Set<Key> = []
        var result: [Declared] = []
        for entity in model.entities {
            for (index, relationship) in entity.relationships.enumerated() {
                let key = Key(entity: entity.name, name: relationship.name)
                guard drawn.insert(key).inserted else { continue }
                var declared = Declared(
                    entity: entity.name, index: index, relationship: relationship)
                if let other = inverse(of: relationship),
                    let back = inverse(of: other.relationship),
                    back.entity == entity.name, back.index == index
                {
                    declared.inverse = other
                    drawn.insert(Key(entity: other.entity, name: other.relationship.name))
                }
                result.append(declared)
            }
        }
        relationships = result
    }
}
