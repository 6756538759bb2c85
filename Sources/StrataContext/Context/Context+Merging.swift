// MARK: - Refreshing and merging other contexts' saves

extension Context {
    /// Re-reads `object` from the store, discarding its unsaved changes.
    /// An object whose row is gone becomes deleted and is forgotten.
    ///
    /// Core Data's `refresh(_:mergeChanges:)` with `false`; posts nothing.
    ///
    /// - Throws: ``ContextError`` (`foreignObject`) for an object of another
    ///   context; store errors, leaving the object as it was.
    public func refresh(_ object: ManagedObject) throws {
        try check(object)
        guard !object.isInserted else { return }  // Never saved: nothing to read.
        // Read first, so a failed read changes nothing.
        let stored = try storedState(of: object)
        updated[object.objectID] = nil
        deleted[object.objectID] = nil
        guard let stored else {
            object.isDeleted = true
            registry[object.objectID] = nil
            return
        }
        object.state = stored
        object.committed = nil
        object.isDeleted = false
        registry[object.objectID] = object
    }

    /// Re-reads every registered object that has no unsaved changes, so
    /// that objects already loaded show what other writers saved since (a
    /// context, like Core Data's, never does so by itself); objects whose
    /// rows are gone become deleted and are forgotten. Core Data's
    /// `refreshAllObjects()`.
    ///
    /// Objects with unsaved changes keep them, and keep the version they
    /// were read at, so saving them over another writer's save still
    /// conflicts (see ``mergePolicy``); ``refresh(_:)`` discards the changes
    /// of one object, ``rollback()`` those of all. Objects nobody holds are
    /// forgotten rather than read (the next fetch reads them afresh).
    ///
    /// Posts `objectsDidChange` with the objects whose rows had changed
    /// (a new `Z_OPT`) as updated and the vanished ones as deleted, as
    /// ``merge(changes:)`` does.
    ///
    /// - Throws: store errors; the objects re-read until then keep their
    ///   new state.
    public func refreshAll() throws {
        registry.purge()
        var changes = ChangeSet()
        defer { if !changes.isEmpty { post(.objectsDidChange, changes) } }
        for object in registry.values where !object.hasChanges {
            let version = object.state.version
            try refresh(object)
            if object.isDeleted {
                changes.deleted.insert(object.objectID)
            } else if object.state.version != version {
                changes.updated.insert(object.objectID)
            }
        }
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
