// MARK: - Renaming identifiers across versions

extension SchemaChain {
    /// The pairings by renaming identifier between two adjacent versions
    /// that Core Data's inferred mapping could not carry out: an attribute
    /// paired with an older attribute of a type that does not widen to its
    /// own (``AttributeType/widens(to:)``), or a property whose renaming
    /// identifier belongs to an older property of the other kind.
    ///
    /// Pairs made by `renamedFrom` are Strata's own and may change type
    /// with a mapping, as a property that keeps its name may.
    ///
    /// - Parameters:
    ///   - older: The earlier version.
    ///   - newer: The version right after it.
    ///   - file: The newer version's file, which the issues name.
    /// - Returns: The issues, with JSON paths into the newer version.
    public static func renamingIssues(from older: Model, to newer: Model, file: String)
        -> [SchemaIssue]
    {
        var issues: [SchemaIssue] = []
        let entities = RenamingPairing.pair(
            newer.entities.map(RenamingPairing.Element.init),
            with: older.entities.map(RenamingPairing.Element.init))
        for entity in newer.entities {
            guard let former = entities[entity.name]?.older else { continue }
            func path(_ kind: String, _ name: String) -> String {
                JSONPath.appending(
                    JSONPath.appending(
                        JSONPath.appending(
                            JSONPath.appending(
                                JSONPath.appending(JSONPath.root, key: "entities"),
                                key: entity.name), key: kind), key: name),
                    key: "renamingIdentifier")
            }
            let oldAttributes = older.allAttributes(of: former).filter { !$0.isTransient }
            let oldRelationships = older.allRelationships(of: former).filter { !$0.isTransient }
            let newAttributes = newer.allAttributes(of: entity.name).filter { !$0.isTransient }
            let newRelationships = newer.allRelationships(of: entity.name).filter {
                !$0.isTransient
            }
            let attributePairs = RenamingPairing.pair(
                newAttributes.map(RenamingPairing.Element.init),
                with: oldAttributes.map(RenamingPairing.Element.init))
            let relationshipPairs = RenamingPairing.pair(
                newRelationships.map(RenamingPairing.Element.init),
                with: oldRelationships.map(RenamingPairing.Element.init))
            // Only the entity's own properties: inherited ones are reported
            // where they are declared.
            for attribute in entity.attributes where !attribute.isTransient {
                if let pair = attributePairs[attribute.name], pair.rule == .renamingIdentifier,
                    pair.older != attribute.name,
                    let old = oldAttributes.first(where: { $0.name == pair.older }),
                    old.type != attribute.type, !old.type.widens(to: attribute.type)
                {
                    issues.append(
                        SchemaIssue(
                            file: file, path: path("attributes", attribute.name),
                            message: "renaming identifier '\(old.renamingIdentifier ?? old.name)' "
                                + "pairs this \(attribute.type.rawValue) attribute with "
                                + "\(former).\(old.name) of version \(older.version), a "
                                + "\(old.type.rawValue), which does not widen to "
                                + "\(attribute.type.rawValue); give it another renaming "
                                + "identifier and convert the values with a mapping"))
                } else if attributePairs[attribute.name] == nil,
                    let identifier = attribute.renamingIdentifier,
                    let other = oldRelationships.first(where: {
                        ($0.renamingIdentifier ?? $0.name) == identifier
                    })
                {
                    issues.append(
                        SchemaIssue(
                            file: file, path: path("attributes", attribute.name),
                            message: "renaming identifier '\(identifier)' belongs to the "
                                + "relationship \(former).\(other.name) of version "
                                + "\(older.version); an attribute cannot continue a relationship"))
                }
            }
            for relationship in entity.relationships where !relationship.isTransient {
                guard relationshipPairs[relationship.name] == nil,
                    let identifier = relationship.renamingIdentifier,
                    let other = oldAttributes.first(where: {
                        ($0.renamingIdentifier ?? $0.name) == identifier
                    })
                else { continue }
                issues.append(
                    SchemaIssue(
                        file: file, path: path("relationships", relationship.name),
                        message: "renaming identifier '\(identifier)' belongs to the attribute "
                            + "\(former).\(other.name) of version \(older.version); a "
                            + "relationship cannot continue an attribute"))
            }
        }
        return issues
    }
}
