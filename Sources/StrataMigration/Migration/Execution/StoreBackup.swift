import Foundation
import StrataCore
import StrataStore

/// The copy of a store kept beside it while a migration runs
/// (`<store>.strata-backup-v<version>`, the version it holds), made before
/// the first stage that can lose something (``isNeeded(before:)``) and
/// removed only after the run succeeded.
enum StoreBackup {
    /// The backup's file name for a store at `version`.
    package static func name(of store: URL, version: Int) -> String {
        "\(store.lastPathComponent).strata-backup-v\(version)"
    }

    /// Whether the backup `name` exists beside `store`.
    static func exists(of store: URL, named name: String) -> Bool {
        FileManager.default.fileExists(
            atPath: store.deletingLastPathComponent().appendingPathComponent(name).path)
    }

    /// Throws ``MigrationError`` (`fileInTheWay`) when a file named like the
    /// backup a new run would make is already there: it belongs to someone
    /// else (an earlier run's copy the user kept), and is never replaced.
    static func refuseExisting(of store: URL, named name: String) throws {
        guard exists(of: store, named: name) else { return }
        let path = store.deletingLastPathComponent().appendingPathComponent(name).relativePath
        throw MigrationError(
            .fileInTheWay,
            message: "\(path) exists from an earlier run; move it away (it may be the only "
                + "copy of an older store) and run again")
    }

    /// The metadata key a backup carries: the UUID of the store it copies.
    /// It tells a backup left by a run killed before its first stage (whose
    /// store has no journal yet) from a file someone else put there.
    static let markerKey = "StrataBackupOf"

    /// Copies `store` to `name` beside it, without a journal in its metadata
    /// and with ``markerKey`` (``begin(of:named:)``, then
    /// ``PendingBackup/finish()``), so a backup is either whole or absent.
    ///
    /// - Throws: ``MigrationError`` (`fileInTheWay`) when a file of that name
    ///   exists; store and file-system errors otherwise.
    package static func make(of store: Store, named name: String) throws {
        try begin(of: store, named: name).finish()
    }

    /// Clones `store` into a temporary file beside it (``FileClone``: shared
    /// blocks where the file system can, else the kernel's copy) and returns
    /// the copy still to be marked, flushed and linked into place as `name`.
    ///
    /// The clone is taken inside a write transaction on the store: no other
    /// connection can commit while the file and its WAL are copied, and the
    /// store's files are only read (a WAL an app left is copied with the
    /// file, not folded into it). Opening the copy replays that WAL, so the
    /// backup holds exactly what was committed. Once this returns, the rest
    /// touches the copy only, so it may run while a stage works on the store.
    ///
    /// - Throws: ``MigrationError`` (`fileInTheWay`) when a file of that name
    ///   exists; store and file-system errors otherwise.
    package static func begin(of store: Store, named name: String) throws -> PendingBackup {
        try refuseExisting(of: store.url, named: name)
        let pending = PendingBackup(
            store: store.url, named: name, uuid: store.metadata.uuid)
        pending.removeWorkFiles()  // A killed copy.
        do {
            try store.connection.inTransaction(.immediate) {
                // The first read fixes the snapshot; the write lock keeps every
                // other writer out, so the WAL cannot grow or restart meanwhile.
                try store.connection.fixSnapshot()
                try FileClone.copy(from: store.url.path, to: pending.temporary.path)
                if FileSystem.size(of: store.url.path + "-wal") > 0 {
                    try FileClone.copy(
                        from: store.url.path + "-wal", to: pending.temporary.path + "-wal")
                }
            }
        } catch {
            pending.removeWorkFiles()
            throw error
        }
        return pending
    }

    /// The index of the stage of a run's `stages` before which the backup is
    /// made: the first that can lose something (``isNeeded(before:)``),
    /// unless it is the last stage. Every stage commits or rolls back as one
    /// transaction, so the backup serves only when a stage after the lossy
    /// one fails, leaving the store at a version between the two ends with
    /// the loss already made. When the lossy stage is the last, its failure
    /// leaves the store exactly as a backup would hold it, and its success
    /// removes the backup: making one would cost a copy of the store for
    /// nothing.
    static func stage(needingBackupIn stages: [MigrationStage]) -> Int? {
        guard let index = stages.firstIndex(where: isNeeded(before:)),
            index < stages.count - 1
        else { return nil }
        return index
    }

    /// Whether a backup must exist before `stage` runs: unless the stage only
    /// adds — new tables, nullable columns, indexes, bookkeeping — and runs
    /// in place. Such a stage changes no existing value and runs in one
    /// transaction, so a kill leaves the old state or the new one. A table
    /// rebuilt or dropped, rows updated or deleted, a lossy or resolved step,
    /// and a copy stage (a mapping file or a custom step fills it) can lose
    /// something and need one.
    static func isNeeded(before stage: MigrationStage) -> Bool {
        guard stage.mode == .inPlace, stage.plan.label == .inferred else { return true }
        return stage.plan.tableChanges.contains { change in
            switch change.strategy {
            case .create, .rewrite: false
            case .alter: change.writesRows
            case .rebuild, .drop: true
            }
        }
    }

    /// Removes the backup `name` beside `store` when it is one a run made
    /// and was killed before committing a stage: it copies this store (its
    /// marker is the store's UUID) at the version the store is still at.
    /// Anything else there is kept and refused.
    ///
    /// - Throws: ``MigrationError`` (`fileInTheWay`) for a file that is not
    ///   such a leftover.
    static func removeLeftover(of store: Store, named name: String) throws {
        guard exists(of: store.url, named: name) else { return }
        let url = store.url.deletingLastPathComponent().appendingPathComponent(name)
        let isLeftover: Bool
        if let backup = try? Store.open(at: url, mode: .readOnly) {
            isLeftover =
                backup.metadata.otherKeys[markerKey] == .text(store.metadata.uuid)
                && backup.metadata.versionHashes == store.metadata.versionHashes
            try? backup.close()  // Read only; nothing to lose.
        } else {
            isLeftover = false
        }
        guard isLeftover else { return try refuseExisting(of: store.url, named: name) }
        remove(of: store.url, named: name)
    }

    /// Removes the backup `name` beside `store`, if it is there.
    package static func remove(of store: URL, named name: String) {
        let target = store.deletingLastPathComponent().appendingPathComponent(name)
        try? FileManager.default.removeItem(at: target)  // Gone already is fine.
    }
}
