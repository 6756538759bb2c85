// MARK: - Fetch indexes

extension SchemaValidator.Run {
    /// Names unique in the entity; each element a stored attribute or to-one
    /// relationship of the entity (inherited ones count), once per index.
    mutating func checkIndexes(of entity: Entity) {
        guard !entity.indexes.isEmpty else { return }
        let attributes = model.allAttributes(of: entity.name).filter { !$0.isTransient }
        let toOnes = model.allRelationships(of: entity.name).filter {
            !$0.isToMany && !$0.isTransient
        }
        let indexable = Set(attributes.map(\.name) + toOnes.map(\.name))
        let base = JSONPath.appending(Self.path(entity.name), key: "indexes")
        var names: [String: Int] = [:]
        for (position, index) in entity.indexes.enumerated() {
            let indexPath = JSONPath.appending(base, index: position)
            let namePath = JSONPath.appending(indexPath, key: "name")
            if index.name.isEmpty {
                report("empty index name; expected a name such as \"byTitle\"", at: namePath)
            } else if let first = names[index.name] {
                report(
                    "index name '\(index.name)' is already used by index \(first) of "
                        + "\(entity.name); index names must be unique", at: namePath)
            } else {
                names[index.name] = position
            }
            let elementsPath = JSONPath.appending(indexPath, key: "elements")
            if index.elements.isEmpty {
                report("an index needs at least one element", at: elementsPath)
            }
            var seen: Set<String> = []
            for (number, element) in index.elements.enumerated() {
                let path = JSONPath.appending(
                    JSONPath.appending(elementsPath, index: number), key: "property")
                if !seen.insert(element.property).inserted {
                    report("'\(element.property)' appears twice in this index", at: path)
                } else if !indexable.contains(element.property) {
                    report(
                        "'\(element.property)' is not a stored attribute or to-one relationship "
                            + "of \(entity.name)", at: path)
                }
            }
        }
    }
}
