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
        // What each entity's properties claim after its ancestors', kept by position: a
        // subentity starts from its parent's, so a chain is walked once, not once per level.
        var claims: [Int: [String: String]] = [:]
        for (index, entity) in model.entities.enumerated() {
            // Inherited properties first, so the entity's own one is reported.
            // A repeated name (reported elsewhere) inherits as the first of that name does.
            let position = model.positions[entity.name] ?? index
            var (owners, loops) = inheritedClaims(of: position, claims: &claims)
            defer { if !loops && position == index { claims[index] = owners } }
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

    /// The identifiers `model.entities[index]` inherits, each with the property that claims
    /// it, the root's first: its parent's claims, built from the nearest ancestor already in
    /// `claims` and kept there. A chain that loops ends where `Model.lineage(of:)` ends it, and
    /// nothing built on it is kept (`loops`): each entity of a loop inherits from another start.
    private func inheritedClaims(
        of index: Int, claims: inout [Int: [String: String]]
    ) -> (owners: [String: String], loops: Bool) {
        var uncached: [Int] = []  // Nearest first.
        var seen: Set<Int> = [index]
        var current = model.parentPositions[index]
        var loops = false
        while let ancestor = current, claims[ancestor] == nil {
            guard seen.insert(ancestor).inserted else {
                loops = true
                break
            }
            uncached.append(ancestor)
            current = model.parentPositions[ancestor]
        }
        var owners = loops ? [:] : current.flatMap { claims[$0] } ?? [:]
        for ancestor in uncached.reversed() {
            for (name, identifier) in Self.identifiers(of: model.entities[ancestor])
            where owners[identifier] == nil {
                owners[identifier] = name
            }
            if !loops { claims[ancestor] = owners }
        }
        return (owners, loops)
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
