import StrataSchema

// MARK: - Inherited properties

// Core Data's archive lists in each subentity's `NSProperties` every
// property the subentity has, the inherited ones again (Wire's caches:
// 138 repeats). Both forms are read: descriptions of their own with the
// parent's definition, and the parent's very objects. A Strata model
// declares each property once, on the entity that declares it, so the
// repeats are taken back out here.

extension ModelCache {
    /// An entity as the archive gives it: its properties, inherited ones
    /// included, and the `$objects` index of each property's description.
    package struct ArchivedEntity {
        var entity: Entity
        /// Property name → index of its description in `$objects`.
        var objects: [String: Int] = [:]
    }

    /// A property an entity has, as its subentities must repeat it.
    private struct Declared {
        /// The entity that declares it.
        let owner: String
        let definition: Definition
        /// The index of its description in `$objects`.
        let object: Int?
    }

    /// An attribute or a relationship, to compare across entities.
    private enum Definition {
        case attribute(Attribute)
        case relationship(Relationship)

        var kind: String {
            switch self {
            case .attribute: "an attribute"
            case .relationship: "a relationship"
            }
        }
    }

    /// The entities, each property kept only on the entity that declares it.
    ///
    /// Entities are visited parents first (Core Data's numbering order), with
    /// the properties of the ancestors in scope, so a grandchild is compared
    /// with its parent's and its grandparent's properties alike. A property
    /// of the name of an ancestor's is inherited when it is the very same
    /// archived object or has the same definition, and is then dropped.
    /// Entities whose parent is missing or on a cycle are left as they are,
    /// for validation to report. Linear in the number of properties.
    ///
    /// - Throws: ``ModelCacheError`` naming the subentity and the property
    ///   when it repeats an inherited name with another definition.
    static func declaringEntities(_ archived: [ArchivedEntity]) throws -> [Entity] {
        var objects: [String: [String: Int]] = [:]
        for item in archived { objects[item.entity.name] = item.objects }
        let forest = InheritanceForest(
            Model(name: "", version: 1, entities: archived.map(\.entity)))
        // The properties of the entities on the path from the current root,
        // and for each open entity the end of its subtree and the names it
        // brought into scope.
        var scope: [String: Declared] = [:]
        var open: [(end: Int, names: [String])] = []
        var entities: [Entity] = []
        entities.reserveCapacity(forest.order.count)
        for (position, original) in forest.order.enumerated() {
            while let last = open.last, last.end <= position {
                for name in last.names { scope[name] = nil }
                open.removeLast()
            }
            var entity = original
            let indexes = objects[entity.name] ?? [:]
            if forest.parent[position] != nil {
                entity.attributes = try entity.attributes.filter { attribute in
                    try !isInherited(
                        .attribute(attribute), object: indexes[attribute.name],
                        in: entity.name, scope: scope)
                }
                entity.relationships = try entity.relationships.filter { relationship in
                    try !isInherited(
                        .relationship(relationship), object: indexes[relationship.name],
                        in: entity.name, scope: scope)
                }
            }
            var names: [String] = []
            for attribute in entity.attributes {
                scope[attribute.name] = Declared(
                    owner: entity.name, definition: .attribute(attribute),
                    object: indexes[attribute.name])
                names.append(attribute.name)
            }
            for relationship in entity.relationships {
                scope[relationship.name] = Declared(
                    owner: entity.name, definition: .relationship(relationship),
                    object: indexes[relationship.name])
                names.append(relationship.name)
            }
            open.append((forest.subtreeEnd[position], names))
            entities.append(entity)
        }
        return entities
    }

    /// Whether `property` of `entity` repeats a property of an ancestor.
    ///
    /// - Throws: ``ModelCacheError`` when it has the name of one but another
    ///   definition.
    private static func isInherited(
        _ property: Definition, object: Int?, in entity: String, scope: [String: Declared]
    ) throws -> Bool {
        let name: String
        switch property {
        case .attribute(let attribute): name = attribute.name
        case .relationship(let relationship): name = relationship.name
        }
        guard let declared = scope[name] else { return false }
        // The same archived object is the same property.
        if let object, object == declared.object { return true }
        let differences: [String]
        switch (property, declared.definition) {
        case (.attribute(var repeated), .attribute(let original)):
            // Core Data derives `isIndexed` from each entity's own fetch
            // indexes, so a copy may say otherwise; the declaring entity's
            // index is the one the store has.
            repeated.isIndexed = original.isIndexed
            guard repeated != original else { return true }
            differences = Self.differences(repeated, original)
        case (.relationship(let repeated), .relationship(let original)):
            guard repeated != original else { return true }
            differences = Self.differences(repeated, original)
        default:
            throw ModelCacheError(
                "\(property.kind) here but \(declared.definition.kind) of "
                    + "\(declared.owner), which \(entity) inherits from",
                entity: entity, property: name)
        }
        let list =
            differences.isEmpty ? "" : " (differs in " + differences.joined(separator: ", ") + ")"
        throw ModelCacheError(
            "repeated with another definition than that of \(declared.owner), which \(entity) "
                + "inherits from\(list); a subentity repeats inherited properties unchanged",
            entity: entity, property: name)
    }

    /// The names of the fields of two attributes that differ.
    private static func differences(_ a: Attribute, _ b: Attribute) -> [String] {
        // Typed: a literal of tuples left to inference takes the type checker over a second.
        let fields: [(String, Bool)] = [
            ("type", a.type != b.type), ("optional", a.isOptional != b.isOptional),
            ("transient", a.isTransient != b.isTransient),
            ("versionHashModifier", a.versionHashModifier != b.versionHashModifier),
            ("renamingIdentifier", a.renamingIdentifier != b.renamingIdentifier),
            ("default", a.defaultValue != b.defaultValue),
            ("valueTransformer", a.valueTransformer != b.valueTransformer),
            ("allowsExternalStorage", a.allowsExternalStorage != b.allowsExternalStorage),
            (
                "preservesValueOnDeletion",
                a.preservesValueOnDeletion != b.preservesValueOnDeletion
            ),
        ]
        return fields.filter(\.1).map(\.0)
    }

    /// The names of the fields of two relationships that differ.
    private static func differences(_ a: Relationship, _ b: Relationship) -> [String] {
        // Typed: a literal of tuples left to inference takes the type checker over a second.
        let fields: [(String, Bool)] = [
            ("destination", a.destination != b.destination), ("inverse", a.inverse != b.inverse),
            ("toMany", a.isToMany != b.isToMany), ("ordered", a.isOrdered != b.isOrdered),
            ("optional", a.isOptional != b.isOptional),
            ("transient", a.isTransient != b.isTransient),
            ("minCount", a.minCount != b.minCount), ("maxCount", a.maxCount != b.maxCount),
            ("deleteRule", a.deleteRule != b.deleteRule),
            ("versionHashModifier", a.versionHashModifier != b.versionHashModifier),
            ("renamingIdentifier", a.renamingIdentifier != b.renamingIdentifier),
        ]
        return fields.filter(\.1).map(\.0)
    }
}
