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
        InheritanceForest(self).order
    }

    /// Core Data's entity numbers (`Z_ENT`), keyed by entity name.
    public var entityNumbers: [String: Int] {
        InheritanceForest(self).position.mapValues { $0 + 1 }
    }

    /// The chain of ancestors of `entityName`, nearest first, stopping before
    /// a missing entity or a cycle.
    public func ancestors(of entityName: String) -> [Entity] {
        var result: [Entity] = []
        for index in lineage(of: entityName).dropFirst() { result.append(entities[index]) }
        return result
    }

    /// The indexes in `entities` of `entityName` and its ancestors, nearest
    /// first, stopping before a missing entity or a cycle. Empty when there
    /// is no such entity.
    ///
    /// A loop, not recursion, and no set of visited names on the way: only a
    /// chain longer than the model (which must loop) is walked again with one.
    func lineage(of entityName: String) -> [Int] {
        var chain: [Int] = []
        var current = positions[entityName]
        while let index = current {
            chain.append(index)
            if chain.count > entities.count { break }
            current = parentPositions[index]
        }
        guard chain.count > entities.count else { return chain }
        var seen: Set<Int> = []
        return Array(chain.prefix { seen.insert($0).inserted })
    }

    /// The root of the inheritance tree `entityName` belongs to (itself when
    /// it has no parent).
    public func rootEntity(of entityName: String) -> Entity? {
        lineage(of: entityName).last.map { entities[$0] }
    }

    /// The direct subentities of `entityName`, sorted by name.
    public func subentities(of entityName: String) -> [Entity] {
        entities.filter { $0.parent == entityName && $0.name != entityName }
    }

    /// `entityName` and every entity that inherits from it, in numbering order.
    public func entityTree(rootedAt entityName: String) -> [Entity] {
        let forest = InheritanceForest(self)
        guard let index = forest.position[entityName] else { return [] }
        return Array(forest.order[forest.subtree(at: index)])
    }

    /// The attributes of `entityName` including inherited ones, sorted by name.
    /// A subentity's own declaration wins over an inherited one of the same name.
    public func allAttributes(of entityName: String) -> [Attribute] {
        // A root entity's own list is already the answer (kept sorted by name).
        if let entity = entity(named: entityName), entity.parent == nil { return entity.attributes }
        var byName: [String: Attribute] = [:]
        for index in lineage(of: entityName) {
            for attribute in entities[index].attributes where byName[attribute.name] == nil {
                byName[attribute.name] = attribute
            }
        }
        return byName.values.sorted { $0.name < $1.name }
    }

    /// The attributes of `entityName` including inherited ones, in the order
    /// the schema files list them: the root entity's first, each entity's in
    /// its ``Entity/declaredOrder``.
    ///
    /// - Returns: The attributes of ``allAttributes(of:)``, rearranged.
    public func attributesInDeclaredOrder(of entityName: String) -> [Attribute] {
        var seen = Set<String>()
        var result: [Attribute] = []
        for index in lineage(of: entityName).reversed() {
            let entity = entities[index]
            for attribute in entity.declaredOrder.arranged(entity.attributes, name: \.name)
            where seen.insert(attribute.name).inserted {
                result.append(attribute)
            }
        }
        return result
    }

    /// The relationships of `entityName` including inherited ones, sorted by name.
    public func allRelationships(of entityName: String) -> [Relationship] {
        if let entity = entity(named: entityName), entity.parent == nil {
            return entity.relationships
        }
        var byName: [String: Relationship] = [:]
        for index in lineage(of: entityName) {
            for relationship in entities[index].relationships
            where byName[relationship.name] == nil {
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
