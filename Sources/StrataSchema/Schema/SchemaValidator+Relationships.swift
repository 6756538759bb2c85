// MARK: - Relationships

extension SchemaValidator.Run {
    mutating func checkRelationship(_ relationship: Relationship, of entity: Entity) {
        func path(_ key: String) -> String {
            Self.path(relationship: relationship, of: entity, key)
        }
        if relationship.isOrdered && !relationship.isToMany {
            report(
                "'ordered' applies only to to-many relationships; add \"toMany\": true",
                at: path("ordered"))
        }
        checkCounts(relationship, path)
        guard let destination = model.entity(named: relationship.destination) else {
            let names = model.entities.map(\.name).joined(separator: ", ")
            report(
                "destination '\(relationship.destination)' is not an entity of the model; "
                    + "entities: \(names)", at: path("destination"))
            return
        }
        if let relatedBy = relationship.relatedBy,
            !model.allAttributes(of: destination.name).contains(where: { $0.name == relatedBy })
        {
            report(
                "relatedBy '\(relatedBy)' is not an attribute of \(destination.name)",
                at: path("relatedBy"))
        }
        checkInverse(relationship, of: entity, destination: destination, path("inverse"))
    }

    mutating func checkCounts(_ relationship: Relationship, _ path: (String) -> String) {
        if !relationship.isToMany {
            // Xcode writes maxCount 1 (and old files minCount 1) on to-ones.
            if relationship.maxCount > 1 {
                report(
                    "a to-one relationship holds at most 1 object, but maxCount is "
                        + "\(relationship.maxCount); add \"toMany\": true", at: path("maxCount"))
            } else if relationship.minCount > 1 {
                report(
                    "a to-one relationship holds at most 1 object, but minCount is "
                        + "\(relationship.minCount)", at: path("minCount"))
            }
        } else if relationship.maxCount > 0 && relationship.minCount > relationship.maxCount {
            report(
                "minCount \(relationship.minCount) is above maxCount \(relationship.maxCount)",
                at: path("minCount"))
        }
    }

    mutating func checkInverse(
        _ relationship: Relationship, of entity: Entity, destination: Entity, _ path: String
    ) {
        // Without an inverse: a plain foreign key or a join table of its
        // own (a warning, see `SchemaValidator.warnings`).
        guard relationship.hasInverse else { return }
        let candidates = model.allRelationships(of: destination.name)
        guard let inverse = candidates.first(where: { $0.name == relationship.inverse }) else {
            let names = candidates.map(\.name)
            let known = names.isEmpty ? "it has none" : "it has " + names.joined(separator: ", ")
            report(
                "inverse '\(relationship.inverse)' is not a relationship of "
                    + "\(destination.name); \(known)", at: path)
            return
        }
        let lineage = [entity.name] + model.ancestors(of: entity.name).map(\.name)
        let owner = "\(destination.name).\(inverse.name)"
        // A broken destination or inverse on the other end is reported there.
        guard let back = model.entity(named: inverse.destination) else { return }
        if !lineage.contains(back.name) {
            report(
                "inverse \(owner) leads to \(back.name), not to \(entity.name); both ends "
                    + "must name each other", at: path)
        } else if inverse.inverse != relationship.name,
            model.allRelationships(of: back.name).contains(where: { $0.name == inverse.inverse })
        {
            report(
                "inverse \(owner) names '\(inverse.inverse)' as its inverse, not "
                    + "'\(relationship.name)'; both ends must name each other", at: path)
        }
    }
}
