import Foundation

/// The copy of a store kept beside it while a migration runs
/// (`<store>.strata-backup-v<version>`), removed only after the run
/// succeeded.
enum StoreBackup {
    /// The backup's file name for a store at `version`.
    static func name(of store: URL, version: Int) -> String {
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

    /// Copies `store` (through its WAL; no checkpoint needed) to `name`
    /// beside it, without a journal in its metadata and with
    /// ``markerKey``: into a temporary file, flushed, then linked into
    /// place, so a backup is either whole or absent.
    ///
    /// - Throws: ``MigrationError`` (`fileInTheWay`) when a file of that name
    ///   exists; store and file-system errors otherwise.
    static func make(of store: Store, named name: String) throws {
        try refuseExisting(of: store.url, named: name)
        let directory = store.url.deletingLastPathComponent()
        let target = directory.appendingPathComponent(name)
        let temporary = directory.appendingPathComponent(".\(name).copying")
        for suffix in ["", "-wal", "-shm", "-journal"] {
            try? FileManager.default.removeItem(atPath: temporary.path + suffix)  // A killed copy.
        }
        defer { try? FileManager.default.removeItem(at: temporary) }  // Leftover only.
        try store.connection.copyDatabase(to: temporary.path)
        let copy = try Store.open(at: temporary)
        var metadata = MigrationJournal.removed(from: copy.metadata)
        metadata.otherKeys[markerKey] = .string(store.metadata.uuid)
        try copy.connection.inTransaction(.immediate) { try copy.writeMetadata(metadata) }
        try copy.close()
        let handle = try FileHandle(forUpdating: temporary)
        try handle.synchronize()
        try handle.close()
        try FileSystem.linkWithoutReplacing(temporary.path, to: target.path)
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
                backup.metadata.otherKeys[markerKey] == .string(store.metadata.uuid)
                && backup.metadata.versionHashes == store.metadata.versionHashes
            try? backup.close()  // Read only; nothing to lose.
        } else {
            isLeftover = false
        }
        guard isLeftover else { return try refuseExisting(of: store.url, named: name) }
        remove(of: store.url, named: name)
    }

    /// Removes the backup `name` beside `store`, if it is there.
    static func remove(of store: URL, named name: String) {
        let target = store.deletingLastPathComponent().appendingPathComponent(name)
        try? FileManager.default.removeItem(at: target)  // Gone already is fine.
    }
}
