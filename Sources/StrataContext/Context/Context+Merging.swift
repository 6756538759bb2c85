// MARK: - Refreshing and merging other contexts' saves

extension Context {
    /// Re-reads `object` from the store, discarding its unsaved changes.
    /// An object whose row is gone becomes deleted and is forgotten.
    public func refresh(_ object: ManagedObject) throws {
        try check(object)
        guard !object.isInserted else { return }  // Never saved: nothing to read.
        updated[object.objectID] = nil
        deleted[object.objectID] = nil
        guard let key = object.objectID.primaryKey else { return }
        let description = object.description_
        let statement = try rowReader.prepare(Self.rowQuery(of: description))
        try statement.bind([.integer(key)])
        guard try statement.step() else {
            object.isDeleted = true
            registry[object.objectID] = nil
            return
        }
        // Read the row into a fresh object, then move its state over, so the
        // caller's reference stays the registered one.
        registry[object.objectID] = nil
        let fresh = try materialize(statement, description: description)
        object.state = fresh.state
        object.committed = nil
        object.isDeleted = false
        registry[object.objectID] = object
    }

    /// Applies another context's `didSave` changes to this one, so that two
    /// contexts on one store agree: objects without unsaved changes here are
    /// re-read (or forgotten when deleted), and loaded to-many relationships
    /// are read again on next access.
    ///
    /// Objects with unsaved changes here are left alone: saving them later
    /// meets the other context's rows, which the merge policy then decides
    /// (no lost updates by default).
    public func merge(changes: ChangeSet) throws {
        var merged = ChangeSet()
        for id in changes.updated {
            guard let object = registered(id), !object.hasChanges else { continue }
            try refresh(object)
            merged.updated.insert(id)
        }
        for id in changes.deleted {
            guard let object = registered(id), !object.hasChanges else { continue }
            object.isDeleted = true
            registry[id] = nil
            merged.deleted.insert(id)
        }
        merged.inserted = changes.inserted
        for object in registry.values {
            guard !object.hasChanges else { continue }
            object.unloadToManyRelationships()
        }
        if !merged.isEmpty { post(.objectsDidChange, merged) }
    }
}
