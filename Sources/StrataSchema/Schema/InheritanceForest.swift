/// The inheritance trees of a model, computed once in time linear in the
/// number of entities, without recursion (chains thousands deep are fine).
///
/// Entities are kept in Core Data's numbering order (depth-first pre-order,
/// roots and children sorted by name; coredata-format.md §1.2), so the
/// entities of any subtree are one contiguous range of that order.
/// Entities whose parent is missing or lies on a cycle count as roots.
package struct InheritanceForest {
    /// The entities in numbering order; entity number `n` is at `n - 1`.
    package let order: [Entity]
    /// The position in `order` of each entity name.
    package let position: [String: Int]
    /// The position of each entity's parent, nil for a root.
    package let parent: [Int?]
    /// The end (exclusive) of the subtree that starts at each position.
    package let subtreeEnd: [Int]
    /// The names of the entities on a parent cycle.
    let onCycle: Set<String>

    package init(_ model: Model) {
        let entities = model.entities
        // Follow each entity's parent links, colouring as we go: an entity
        // met again on the current walk closes a cycle.
        var onCycle: Set<String> = []
        var finished: Set<String> = []
        for start in entities where !finished.contains(start.name) {
            var walk: [String] = []
            var onWalk: [String: Int] = [:]
            var current: String? = start.name
            while let name = current, !finished.contains(name),
                let entity = model.entity(named: name)
            {
                if let index = onWalk[name] {
                    onCycle.formUnion(walk[index...])
                    break
                }
                onWalk[name] = walk.count
                walk.append(name)
                current = entity.parent
            }
            finished.formUnion(walk)
        }

        var children: [String: [Entity]] = [:]
        var roots: [Entity] = []
        for entity in entities {
            if let parent = entity.parent, model.entity(named: parent) != nil,
                !onCycle.contains(entity.name)
            {
                children[parent, default: []].append(entity)
            } else {
                roots.append(entity)
            }
        }

        // Pre-order with an explicit stack; `entities` is sorted by name, so
        // each children list is too, and is pushed in reverse.
        var order: [Entity] = []
        var position: [String: Int] = [:]
        var parent: [Int?] = []
        var subtreeEnd: [Int] = []
        order.reserveCapacity(entities.count)
        var stack: [(entity: Entity, parent: Int?)] = roots.reversed().map { ($0, nil) }
        var open: [Int] = []  // Positions whose subtree is not closed yet.
        while let (entity, parentPosition) = stack.popLast() {
            // Close the subtrees this entity is not part of.
            while let last = open.last, last != parentPosition {
                subtreeEnd[last] = order.count
                open.removeLast()
            }
            let here = order.count
            order.append(entity)
            if position[entity.name] == nil { position[entity.name] = here }
            parent.append(parentPosition)
            subtreeEnd.append(here + 1)
            open.append(here)
            for child in (children[entity.name] ?? []).reversed() {
                stack.append((child, here))
            }
            // A repeated name (a bad model) must not expand the same children twice.
            children[entity.name] = nil
        }
        for last in open { subtreeEnd[last] = order.count }

        self.order = order
        self.position = position
        self.parent = parent
        self.subtreeEnd = subtreeEnd
        self.onCycle = onCycle
    }

    /// The positions of the entity at `index` and of everything inheriting
    /// from it, in numbering order.
    package func subtree(at index: Int) -> Range<Int> {
        index..<subtreeEnd[index]
    }

    /// The position of the root of the tree holding the entity at `index`.
    package func root(of index: Int) -> Int {
        var current = index
        while let up = parent[current] { current = up }
        return current
    }
}
