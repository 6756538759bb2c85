import StrataStore

// MARK: - Delete rules

extension Context {
    /// Applies the delete rules of every deleted object, until no rule
    /// deletes anything more: `cascade` deletes the destinations, `nullify`
    /// removes the object from their inverse, `deny` refuses while a
    /// destination remains, `noAction` leaves the destinations alone.
    ///
    /// - Throws: ``ContextError`` (`deleteDenied`) naming the objects whose
    ///   `deny` rules block the save.
    func propagateDeletes() throws {
        var queue = Array(deleted.values)
        var denied: [(ManagedObject, String, [ObjectID])] = []
        var processed: Set<ObjectID> = []
        while let object = queue.popLast() {
            guard processed.insert(object.objectID).inserted else { continue }
            for (index, relationship) in object.description_.relationships.enumerated()
            where !relationship.isTransient {
                let destinations: [ObjectID] =
                    relationship.isToMany
                    ? try toManyIDs(of: object, index)
                    : object.state.toOne[index].map { [$0] } ?? []
                let living = destinations.filter { registered($0)?.isDeleted != true }
                switch relationship.deleteRule {
                case .cascade:
                    for id in living {
                        guard let destination = try? self.object(with: id), !destination.isDeleted
                        else { continue }
                        markDeleted(destination)
                        queue.append(destination)
                    }
                case .nullify:
                    // Without an inverse the destinations do not know the object.
                    guard relationship.hasInverse else { break }
                    for id in living {
                        guard let destination = try? self.object(with: id) else { continue }
                        let inverseIndex = try destination.description_.relationship(
                            relationship.inverse)
                        try removeInverse(object, from: destination, inverseIndex)
                    }
                case .deny:
                    if !living.isEmpty { denied.append((object, relationship.name, living)) }
                case .noAction:
                    break
                }
            }
        }
        // A destination deleted later in the same save no longer blocks.
        let blocking = denied.compactMap { object, name, ids -> String? in
            let still = ids.filter { registered($0)?.isDeleted != true }
            guard !still.isEmpty else { return nil }
            return
                "\(object.objectID).\(name) still holds \(still.map(\.description).joined(separator: ", "))"
        }
        if !blocking.isEmpty {
            throw ContextError(
                .deleteDenied, "delete denied: " + blocking.joined(separator: "; "),
                objects: denied.map(\.0.objectID))
        }
    }

    /// Marks `object` deleted as part of a save's propagation.
    private func markDeleted(_ object: ManagedObject) {
        journal(object)
        if object.isInserted {
            object.isInserted = false
            object.isDeleted = true
            return
        }
        object.isDeleted = true
        updated[object.objectID] = nil
        deleted[object.objectID] = object
        pendingChanges.deleted.insert(object.objectID)
    }

    /// Takes `object` out of `destination`'s relationship `inverseIndex`.
    private func removeInverse(
        _ object: ManagedObject, from destination: ManagedObject, _ inverseIndex: Int
    ) throws {
        let inverse = destination.description_.relationships[inverseIndex]
        if inverse.isToMany {
            var members = try toManyIDs(of: destination, inverseIndex)
            guard let position = members.firstIndex(of: object.objectID) else { return }
            journal(destination)
            members.remove(at: position)
            destination.state.toMany[inverseIndex] = members
        } else {
            guard destination.state.toOne[inverseIndex] == object.objectID else { return }
            journal(destination)
            destination.state.toOne[inverseIndex] = nil
        }
        destination.state.changedRelationships.insert(inverseIndex)
        didChange(destination)
    }
}
