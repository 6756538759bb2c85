import Foundation
import StrataSchema
import StrataStore

// MARK: - Saving

extension Context {
    /// Writes every insert, update and delete to the store in one
    /// transaction.
    ///
    /// In order: `objectsDidChange` and `willSave` are posted; `touch: "save"`
    /// dates are refreshed on changed objects; delete rules run; every
    /// changed object is validated (all failures collected); then, holding
    /// the store's ``StoreLock`` shared (waiting out a migration another
    /// process runs) and SQLite's write lock, the store's version hashes are
    /// checked to be the ones it was opened with, rows are checked against
    /// the versions this context read, primary keys are taken from `Z_PRIMARYKEY.Z_MAX`, and
    /// rows are written with `Z_OPT` raised by one. `didSave` follows with
    /// the permanent ids.
    ///
    /// A save that fails — validation, a denied delete, a conflict, a store
    /// error — writes nothing and leaves every object as it was. After a
    /// conflict, ``rollback()`` also re-reads the conflicting objects, so
    /// that the edit can be made again and saved.
    ///
    /// - Throws: ``ValidationError``; ``ContextError`` (`deleteDenied`,
    ///   `conflict`); ``StoreError`` (`locked`: a migration holds the store;
    ///   `versionChanged`: it was migrated since it was opened);
    ///   ``ContextError`` (`readOnly`) when the context was opened
    ///   ``Access/readOnlyBestEffort`` and has changes;
    ///   ``SQLiteError`` from the store.
    public func save() throws {
        // A generated class's setter could not throw: its error waits here.
        if let deferredError { throw deferredError }
        processPendingChanges()
        for (id, object) in updated where !object.state.hasChanges {
            updated[id] = nil  // Set back to what it was: nothing to write.
        }
        guard !inserted.isEmpty || !updated.isEmpty || !deleted.isEmpty else { return }
        guard access == .readWrite else {
            throw ContextError(
                .readOnly,
                "\(store.path): this context is read-only (opened best-effort with \(model.name) "
                    + "version \(model.version)); nothing was saved")
        }
        if observers.values.contains(where: { $0.event == .willSave }) {
            post(
                .willSave,
                ChangeSet(
                    inserted: Set(inserted.keys), updated: Set(updated.keys),
                    deleted: Set(deleted.keys)))
        }

        beginJournal()
        let written: SaveResult
        do {
            touchDates()
            try propagateDeletes()
            savingInserted = inserted.values
            let failures = try validationFailures()
            if !failures.isEmpty { throw ValidationError(failures: failures) }
            written = try store.withSharedLock {
                try store.connection.inTransaction(.immediate) {
                    try store.checkVersionUnchanged(verified: &verifiedMetadata)
                    return try writeChanges()
                }
            }
        } catch {
            savingInserted = nil
            restoreJournal()
            if let conflict = error as? ContextError, conflict.code == .conflict {
                conflictedIDs.formUnion(conflict.objects)
            }
            throw error
        }
        saveJournal = nil
        conflictedIDs = []
        let changes = finishSave(written)
        post(.didSave, changes)
    }

    /// Sets `touch: "save"` dates of changed objects to now.
    private func touchDates() {
        guard descriptions.values.contains(where: { !$0.touchedOnSave.isEmpty }) else { return }
        let now = AttributeValue.date(Date().timeIntervalSinceReferenceDate)
        for object in Array(inserted.values) + Array(updated.values) where !object.isDeleted {
            for index in object.description_.touchedOnSave {
                journal(object)
                object.state.values[index] = now
                if !object.isInserted { object.state.changedAttributes.insert(index) }
            }
        }
    }
}

/// What a save's write phase decided beyond the keys it gave (which it
/// leaves in each inserted object's `savingKey`).
struct SaveResult {
    /// Objects `.contextWins` writes column by column (see `writeChangedColumns`).
    var mergedUpdates: Set<ObjectIdentifier> = []
    /// Objects whose changes a `storeWins` policy dropped.
    var refreshed: [ManagedObject] = []
}

extension ChangeSet {
    init(inserted: Set<ObjectID>, updated: Set<ObjectID>, deleted: Set<ObjectID>) {
        self.init()
        self.inserted = inserted
        self.updated = updated
        self.deleted = deleted
    }
}
