import StrataSchema
import StrataStore

// MARK: - Relationships and their inverses

extension Context {
    /// The destinations of to-many relationship `index` of `object`, loading
    /// them from the store the first time (and reconciling them with this
    /// context's unsaved changes to the other side).
    func toManyIDs(of object: ManagedObject, _ index: Int) throws -> [ObjectID] {
        if let loaded = object.state.toMany[index] { return loaded }
        let relationship = object.description_.relationships[index]
        var ids: [ObjectID] = []
        if let key = object.objectID.primaryKey,
            object.description_.mapping.toMany[relationship.name] != nil,
            descriptions[relationship.destination] != nil
        {
            let statement = try RowReader(store, tables: mapping).destinations(
                of: relationship.name, from: object.description_.name)
            try statement.bind([.integer(key)])
            while try statement.step() {
                let name = namesByNumber[Int(statement.int64(at: 1))] ?? relationship.destination
                ids.append(ObjectID(entityName: name, key: statement.int64(at: 0)))
            }
        }
        ids = reconcile(ids, of: object, relationship)
        object.state.toMany[index] = ids
        if object.hasCommitted, !object.state.changedRelationships.contains(index) {
            object.committed?.toMany[index] = ids
        }
        return ids
    }

    /// Applies unsaved changes of the destination objects' inverse to a list
    /// read from the store.
    private func reconcile(
        _ ids: [ObjectID], of object: ManagedObject, _ relationship: Relationship
    ) -> [ObjectID] {
        var result = ids
        let candidates = Array(inserted.values) + Array(updated.values)
        for other in candidates {
            // Only possible members whose side of the pair changed matter.
            guard isKind(other.entityName, of: relationship.destination),
                let inverseIndex = other.description_.relationshipIndex[relationship.inverse],
                other.state.changedRelationships.contains(inverseIndex)
            else { continue }
            let inverse = other.description_.relationships[inverseIndex]
            let pointsHere =
                inverse.isToMany
                ? (other.state.toMany[inverseIndex]?.contains(object.objectID) ?? false)
                : other.state.toOne[inverseIndex] == object.objectID
            let listed = result.contains(other.objectID)
            if pointsHere, !listed {
                result.append(other.objectID)
            } else if !pointsHere, listed,
                inverse.isToMany ? other.state.toMany[inverseIndex] != nil : true
            {
                result.removeAll { $0 == other.objectID }
            }
        }
        return result
    }

    /// Makes `destination` part of relationship `index` of `source` (for a
    /// to-one, its value; for a to-many, a member at `position`, default the
    /// end) and keeps the inverse in step.
    package func link(
        _ source: ManagedObject, _ index: Int, _ destination: ManagedObject, at position: Int? = nil
    ) throws {
        try check(source)
        try check(destination)
        let relationship = source.description_.relationships[index]
        guard isKind(destination.entityName, of: relationship.destination) else {
            throw ContextError(
                .wrongType,
                "\(source.entityName).\(relationship.name) holds \(relationship.destination) objects, not \(destination.entityName)"
            )
        }
        // A relationship without an inverse has no other side to keep in step.
        let inverseIndex =
            relationship.hasInverse
            ? try destination.description_.relationship(relationship.inverse) : nil
        if relationship.isToMany {
            var members = try toManyIDs(of: source, index)
            if let current = members.firstIndex(of: destination.objectID) {
                guard let position, relationship.isOrdered else { return }
                members.remove(at: current)
                members.insert(destination.objectID, at: min(position, members.count))
                set(source, index, toMany: members)
                return
            }
            members.insert(destination.objectID, at: min(position ?? members.count, members.count))
            set(source, index, toMany: members)
        } else {
            if source.state.toOne[index] == destination.objectID { return }
            if relationship.hasInverse, let old = source.state.toOne[index],
                let previous = try? object(with: old)
            {
                try unlinkInverse(
                    of: source, from: previous,
                    inverseIndex: try previous.description_.relationship(relationship.inverse))
            }
            set(source, index, toOne: destination.objectID)
        }
        // The inverse side.
        guard let inverseIndex else { return }
        let inverse = destination.description_.relationships[inverseIndex]
        if inverse.isToMany {
            if var members = destination.state.toMany[inverseIndex] {
                if !members.contains(source.objectID) { members.append(source.objectID) }
                set(destination, inverseIndex, toMany: members)
            } else {
                journal(destination)
                destination.state.changedRelationships.insert(inverseIndex)
                didChange(destination)
            }
        } else {
            if let old = destination.state.toOne[inverseIndex], old != source.objectID,
                let previous = try? object(with: old)
            {
                // The destination leaves its previous owner (one-to-many or
                // one-to-one steal).
                let previousIndex = try previous.description_.relationship(relationship.name)
                if relationship.isToMany {
                    try removeMember(destination.objectID, from: previous, previousIndex)
                } else if previous.state.toOne[previousIndex] == destination.objectID {
                    set(previous, previousIndex, toOne: nil)
                }
            }
            set(destination, inverseIndex, toOne: source.objectID)
        }
    }

    /// Removes `destination` from relationship `index` of `source`, and
    /// `source` from the inverse.
    package func unlink(_ source: ManagedObject, _ index: Int, _ destination: ManagedObject) throws
    {
        try check(source)
        let relationship = source.description_.relationships[index]
        if relationship.isToMany {
            try removeMember(destination.objectID, from: source, index)
        } else {
            guard source.state.toOne[index] == destination.objectID else { return }
            set(source, index, toOne: nil)
        }
        guard relationship.hasInverse else { return }
        let inverseIndex = try destination.description_.relationship(relationship.inverse)
        try unlinkInverse(of: source, from: destination, inverseIndex: inverseIndex)
    }

    /// Clears to-one `index` of `source`, whose key points at no living
    /// object (a relationship without an inverse: nothing else to update).
    func clearKey(of source: ManagedObject, _ index: Int) throws {
        try check(source)
        set(source, index, toOne: nil)
    }

    /// Removes `source` from `destination`'s inverse relationship.
    private func unlinkInverse(
        of source: ManagedObject, from destination: ManagedObject, inverseIndex: Int
    ) throws {
        let inverse = destination.description_.relationships[inverseIndex]
        if inverse.isToMany {
            if destination.state.toMany[inverseIndex] != nil {
                try removeMember(source.objectID, from: destination, inverseIndex)
            } else {
                journal(destination)
                destination.state.changedRelationships.insert(inverseIndex)
                didChange(destination)
            }
        } else if destination.state.toOne[inverseIndex] == source.objectID {
            set(destination, inverseIndex, toOne: nil)
        }
    }

    private func removeMember(_ member: ObjectID, from owner: ManagedObject, _ index: Int) throws {
        var members = try toManyIDs(of: owner, index)
        guard let position = members.firstIndex(of: member) else { return }
        members.remove(at: position)
        set(owner, index, toMany: members)
    }

    private func set(_ object: ManagedObject, _ index: Int, toMany members: [ObjectID]) {
        journal(object)
        object.state.toMany[index] = members
        object.state.changedRelationships.insert(index)
        didChange(object)
    }

    private func set(_ object: ManagedObject, _ index: Int, toOne destination: ObjectID?) {
        journal(object)
        object.state.toOne[index] = destination
        object.state.changedRelationships.insert(index)
        didChange(object)
    }

    /// Whether `entityName` is `ancestor` or inherits from it.
    func isKind(_ entityName: String, of ancestor: String) -> Bool {
        entityName == ancestor || model.ancestors(of: entityName).contains { $0.name == ancestor }
    }

    /// Removes `object` from every relationship, on both sides (used when an
    /// object that was never saved is deleted).
    func detach(_ object: ManagedObject) throws {
        for (index, relationship) in object.description_.relationships.enumerated()
        where !relationship.isTransient {
            if relationship.isToMany {
                for id in try toManyIDs(of: object, index) {
                    if let member = try? self.object(with: id) { try unlink(object, index, member) }
                }
            } else if let id = object.state.toOne[index],
                let destination = try? self.object(with: id)
            {
                try unlink(object, index, destination)
            }
        }
    }
}
