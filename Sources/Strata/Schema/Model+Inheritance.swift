// MARK: - Inheritance

extension Model {
    /// The entities in Core Data's numbering order: depth-first pre-order over
    /// the inheritance forest, roots sorted by name and each entity's children
    /// sorted by name (coredata-format.md §1.2). Entity number `n` is the
    /// element at index `n - 1`.
    ///
    /// Entities whose parent is missing or lies on a cycle are treated as
    /// roots, so the order is defined even for a model that fails validation.
    public var entitiesInNumberingOrder: [Entity] {
        var children: [String: [Entity]] = [:]
        var roots: [Entity] = []
        let names = Set(entities.map(\.name))
        for entity in entities {
            if let parent = entity.parent, names.contains(parent), !isOnParentCycle(entity.name) {
                children[parent, default: []].append(entity)
            } else {
                roots.append(entity)
            }
        }
        var ordered: [Entity] = []
        ordered.reserveCapacity(entities.count)
        func visit(_ entity: Entity) {
            ordered.append(entity)
            // `entities` is sorted by name, so each children list is as well.
            for child in children[entity.name] ?? [] { visit(child) }
        }
        for root in roots { visit(root) }
        return ordered
    }

    /// Core Data's entity numbers (`Z_ENT`), keyed by entity name.
    public var entityNumbers: [String: Int] {
        var numbers: [String: Int] = [:]
        for (index, entity) in entitiesInNumberingOrder.enumerated() {
            numbers[entity.name] = index + 1
        }
        return numbers
    }

    /// The chain of ancestors of `entityName`, nearest first, stopping before
    /// a missing entity or a cycle.
    public func ancestors(of entityName: String) -> [Entity] {
        var result: [Entity] = []
        var seen: Set<String> = [entityName]
        var current = entity(named: entityName)?.parent
        while let name = current, !seen.contains(name), let parent = entity(named: name) {
            result.append(parent)
            seen.insert(name)
            current = parent.parent
        }
        return result
    }

    /// The root of the inheritance tree `entityName` belongs to (itself when
    /// it has no parent).
    public func rootEntity(of entityName: String) -> Entity? {
        ancestors(of: entityName).last ?? entity(named: entityName)
    }

    /// The direct subentities of `entityName`, sorted by name.
    public func subentities(of entityName: String) -> [Entity] {
        entities.filter { $0.parent == entityName && $0.name != entityName }
    }

    /// `entityName` and every entity that inherits from it, in numbering order.
    public func entityTree(rootedAt entityName: String) -> [Entity] {
        entitiesInNumberingOrder.filter { candidate in
            candidate.name == entityName
                || ancestors(of: candidate.name).contains { $0.name == entityName }
        }
    }

    /// The attributes of `entityName` including inherited ones, sorted by name.
    /// A subentity's own declaration wins over an inherited one of the same name.
    public func allAttributes(of entityName: String) -> [Attribute] {
        // A root entity's own list is already the answer (kept sorted by name).
        if let entity = entity(named: entityName), entity.parent == nil { return entity.attributes }
        var byName: [String: Attribute] = [:]
        for entity in ([entity(named: entityName)].compactMap { $0 } + ancestors(of: entityName)) {
            for attribute in entity.attributes where byName[attribute.name] == nil {
                byName[attribute.name] = attribute
            }
        }
        return byName.values.sorted { $0.name < $1.name }
    }

    /// The relationships of `entityName` including inherited ones, sorted by name.
    public func allRelationships(of entityName: String) -> [Relationship] {
        if let entity = entity(named: entityName), entity.parent == nil {
            return entity.relationships
        }
        var byName: [String: Relationship] = [:]
        for entity in ([entity(named: entityName)].compactMap { $0 } + ancestors(of: entityName)) {
            for relationship in entity.relationships where byName[relationship.name] == nil {
                byName[relationship.name] = relationship
            }
        }
        return byName.values.sorted { $0.name < $1.name }
    }

    /// Whether following `parent` links from `entityName` comes back to it.
    public func isOnParentCycle(_ entityName: String) -> Bool {
        var seen: Set<String> = []
        var current: String? = entityName
        while let name = current, let entity = entity(named: name) {
            // A cycle further up the chain does not include this entity.
            if !seen.insert(name).inserted { return false }
            current = entity.parent
            if current == entityName { return true }
        }
        return false
    }
}
