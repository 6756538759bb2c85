// MARK: - Which plan steps the mapping resolves

extension MigrationMapping {
    /// Whether the mapping resolves a step of the plan between its two
    /// versions, so that a lossy or needs-mapping step may run:
    ///
    /// - a destination attribute with an expression covers its steps (added,
    ///   made required, changed type, moved, external storage switched), and
    ///   so does a rule of an ancestor entity that gives the attribute a value;
    /// - a relationship rule covers the steps of its relationship and of its
    ///   inverse (added, made required, changed destination, to-many to
    ///   to-one, moved);
    /// - `discard` covers the loss of what it names: a removed entity or
    ///   property (a removed relationship also when its inverse is named),
    ///   or a lossy change of a property; `"Entity.property"` covers that
    ///   entity and its subentities, not a sibling's property of the same
    ///   name;
    /// - a removed attribute or relationship that an expression or link path
    ///   reads is covered (its values move on), a removed relationship whose
    ///   inverse a link path reads too (the same links), and so is a removed
    ///   entity that is the `source` of a rule.
    ///
    /// - Parameter step: A step of `MigrationPlan(from: source, to: destination)`.
    /// - Returns: Whether the step is resolved by the mapping.
    public func covers(_ step: MigrationStep) -> Bool {
        let former =
            step.kind == .removeEntity
            ? step.entity
            : step.formerEntity ?? correspondence.entities[step.entity] ?? step.entity
        if step.kind == .removeEntity {
            return isDiscarded(former, nil) || entities.contains { $0.source == former }
        }
        guard let property = step.property else { return false }
        let formerProperty = step.formerProperty ?? property
        if isDiscarded(former, formerProperty) { return true }
        switch step.kind {
        case .removeAttribute, .removeRelationship:
            let owner =
                PlanContext.declaringEntity(of: formerProperty, from: former, in: source) ?? former
            if reads.contains([owner, formerProperty]) { return true }
            // A relationship's links are one set seen from both ends: a rule
            // that reads the inverse carries them on.
            guard step.kind == .removeRelationship,
                let relationship = source.allRelationships(of: former)
                    .first(where: { $0.name == formerProperty })
            else { return false }
            let inverseOwner =
                PlanContext.declaringEntity(
                    of: relationship.inverse, from: relationship.destination, in: source)
                ?? relationship.destination
            return reads.contains([inverseOwner, relationship.inverse])
                || isDiscarded(relationship.destination, relationship.inverse)
        case .addIndex, .removeIndex, .addUniquenessConstraint, .removeUniquenessConstraint:
            return false
        default:
            break
        }
        let lineage =
            [step.entity] + destination.ancestors(of: step.entity).map(\.name)
        if destination.allAttributes(of: step.entity).contains(where: { $0.name == property }) {
            return lineage.contains { entity(named: $0)?.attributes[property] != nil }
        }
        guard
            let relationship = destination.allRelationships(of: step.entity).first(where: {
                $0.name == property
            })
        else { return false }
        if lineage.contains(where: { entity(named: $0)?.relationships[property] != nil }) {
            return true
        }
        let inverseOwners =
            [relationship.destination]
            + destination.ancestors(of: relationship.destination).map(\.name)
            + destination.subentities(of: relationship.destination).map(\.name)
        return inverseOwners.contains {
            entity(named: $0)?.relationships[relationship.inverse] != nil
        }
    }

    /// Whether `discard` names the source entity, or its property.
    private func isDiscarded(_ entity: String, _ property: String?) -> Bool {
        discarded.contains { name in
            guard
                let (discardedEntity, discardedProperty) = Self.resolveDiscard(
                    name, source: source, destination: destination,
                    correspondence: correspondence)
            else { return false }
            if property == nil { return discardedProperty == nil && discardedEntity == entity }
            guard discardedProperty == property else { return false }
            // Named on the entity or on an ancestor whose objects include
            // it; a sibling's property of the same name (Country.x for
            // Continent.x) is another loss, and a subentity's discard
            // does not acknowledge its parent's own objects.
            return discardedEntity == entity
                || source.ancestors(of: entity).contains { $0.name == discardedEntity }
        }
    }
}
