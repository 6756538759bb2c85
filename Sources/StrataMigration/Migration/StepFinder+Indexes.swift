// MARK: - Indexes and uniqueness constraints

extension StepFinder {
    /// Fetch indexes by name, and uniqueness constraints compared in the newer
    /// names (an older constraint over a renamed attribute is the same
    /// constraint). Indexed attributes are compared with the attributes.
    mutating func findIndexSteps() {
        for entity in destination.entitiesInNumberingOrder {
            guard let formerName = context.formerEntity(of: entity.name),
                let former = source.entity(named: formerName)
            else { continue }
            let tables = [context.destinationTable(of: entity.name)].compactMap { $0 }
            let oldIndexes = Dictionary(former.indexes.map { ($0.name, $0) }) { first, _ in first }
            let newIndexes = Dictionary(entity.indexes.map { ($0.name, $0) }) { first, _ in first }
            for name in Set(oldIndexes.keys).union(newIndexes.keys).sorted() {
                let (old, new) = (oldIndexes[name], newIndexes[name])
                guard
                    old?.elements.map(\.property).map(newName(in: entity.name))
                        != new?.elements.map(\.property)
                        || old?.elements.map(\.order) != new?.elements.map(\.order)
                else { continue }
                steps.append(
                    MigrationStep(
                        new == nil ? .removeIndex : .addIndex, entity: entity.name,
                        property: name, label: .inferred,
                        reason: new == nil
                            ? "fetch index is gone"
                            : old == nil ? "new fetch index" : "fetch index is redefined",
                        tables: tables))
            }
            let rename = newName(in: entity.name)
            let oldConstraints = Set(former.uniquenessConstraints.map { $0.map(rename) })
            let newConstraints = Set(entity.uniquenessConstraints)
            for constraint in newConstraints.subtracting(oldConstraints) where !constraint.isEmpty {
                steps.append(
                    MigrationStep(
                        .addUniquenessConstraint, entity: entity.name,
                        property: constraint.joined(separator: ","), label: .inferred,
                        reason: "new uniqueness constraint; fails if existing objects repeat a "
                            + "value", tables: tables))
            }
            for constraint in oldConstraints.subtracting(newConstraints) where !constraint.isEmpty {
                steps.append(
                    MigrationStep(
                        .removeUniquenessConstraint, entity: entity.name,
                        property: constraint.joined(separator: ","), label: .inferred,
                        reason: "uniqueness constraint is gone", tables: tables))
            }
        }
    }

    /// Maps an older property name of the entity that newer `entity`
    /// continues to its newer name (unchanged when it has none).
    private func newName(in entity: String) -> (String) -> String {
        var newer: [String: String] = [:]
        for (new, old) in context.match.attributes[entity] ?? [:] { newer[old] = new }
        for (new, old) in context.match.relationships[entity] ?? [:] { newer[old] = new }
        return { newer[$0] ?? $0 }
    }
}
