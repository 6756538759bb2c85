import StrataStore

/// What a save changed in memory before it reached the store, so that a
/// failed save can put every object back exactly as it was.
struct SaveJournal {
    struct Entry {
        var object: ManagedObject
        var state: ObjectState
        var isInserted: Bool
        var isDeleted: Bool
    }

    var entries: [ObjectIdentifier: Entry] = [:]
    var inserted: InsertedObjects
    var updated: [ObjectID: ManagedObject]
    var deleted: [ObjectID: ManagedObject]
    var pendingChanges: ChangeSet

    /// Remembers `object` as it is now, unless it is already remembered.
    package mutating func record(_ object: ManagedObject) {
        let key = ObjectIdentifier(object)
        guard entries[key] == nil else { return }
        entries[key] = Entry(
            object: object, state: object.state, isInserted: object.isInserted,
            isDeleted: object.isDeleted)
    }
}

extension Context {
    /// Starts remembering every object a save is about to change.
    func beginJournal() {
        // Objects are remembered lazily, by every path that changes them
        // during a save (`journal(_:)`), so a bulk insert pays nothing here.
        saveJournal = SaveJournal(
            inserted: inserted, updated: updated, deleted: deleted, pendingChanges: pendingChanges)
    }

    /// Puts every remembered object and the change sets back.
    func restoreJournal() {
        guard let journal = saveJournal else { return }
        for entry in journal.entries.values {
            entry.object.state = entry.state
            entry.object.isInserted = entry.isInserted
            entry.object.isDeleted = entry.isDeleted
        }
        inserted = journal.inserted
        updated = journal.updated
        deleted = journal.deleted
        pendingChanges = journal.pendingChanges
        saveJournal = nil
    }

    /// Called before any change to `object`: remembers it if a save is in
    /// progress, and keeps its saved state for rollback if this is its first
    /// change since it was saved or fetched.
    func journal(_ object: ManagedObject) {
        saveJournal?.record(object)
        if !object.isInserted, !object.hasCommitted, !object.state.hasChanges, !object.isDeleted {
            object.committed = object.state
        }
    }
}
