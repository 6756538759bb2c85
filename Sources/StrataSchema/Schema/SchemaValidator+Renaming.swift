// MARK: - Renaming identifiers

extension SchemaValidator.Run {
    /// No two entities, and no two properties an entity has (inherited ones
    /// included), may carry the same renaming identifier, counting an unset
    /// one as the name: Core Data could not tell which of them continues the
    /// element of the earlier version that has it.
    mutating func checkRenamingIdentifiers() {
        var entityOwners: [String: String] = [:]
        // Unset identifiers first, so the entity that claims another's name is reported.
        let entities =
            model.entities.filter { $0.renamingIdentifier == nil }
            + model.entities.filter { $0.renamingIdentifier != nil }
        for entity in entities {
            let identifier = entity.renamingIdentifier ?? entity.name
            if let other = entityOwners[identifier] {
                report(
                    "renaming identifier '\(identifier)' is also that of entity \(other); each "
                        + "entity needs its own (an unset one is the entity's name)",
                    at: JSONPath.appending(Self.path(entity.name), key: "renamingIdentifier"))
            } else {
                entityOwners[identifier] = entity.name
            }
        }
        for entity in model.entities {
            // Inherited properties first, so the entity's own one is reported.
            var owners: [String: String] = [:]
            for ancestor in model.ancestors(of: entity.name).reversed() {
                for (name, identifier) in Self.identifiers(of: ancestor)
                where owners[identifier] == nil {
                    owners[identifier] = name
                }
            }
            for property in Self.properties(of: entity) {
                if let other = owners[property.identifier] {
                    // Two properties of one name are reported as such already.
                    if other == property.name { continue }
                    report(
                        "renaming identifier '\(property.identifier)' is also that of property "
                            + "\(other); each property of \(entity.name) needs its own (an "
                            + "unset one is the property's name)",
                        at: JSONPath.appending(
                            Self.path(entity.name, property.kind, property.name),
                            key: "renamingIdentifier"))
                } else {
                    owners[property.identifier] = property.name
                }
            }
        }
    }

    private static func properties(of entity: Entity) -> [(
        name: String, kind: String, identifier: String
    )] {
        // Unset identifiers first, so the property that claims another's name is reported.
        let attributes = entity.attributes.map {
            ($0.name, "attributes", $0.renamingIdentifier ?? $0.name, $0.renamingIdentifier == nil)
        }
        let relationships = entity.relationships.map {
            (
                $0.name, "relationships", $0.renamingIdentifier ?? $0.name,
                $0.renamingIdentifier == nil
            )
        }
        return (attributes + relationships).sorted { $0.3 && !$1.3 }.map { ($0.0, $0.1, $0.2) }
    }

    private static func identifiers(of entity: Entity) -> [(String, String)] {
        properties(of: entity).map { ($0.name, $0.identifier) }
    }
}
