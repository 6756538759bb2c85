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

    /// Copies the store's main file (the caller checkpointed its WAL into
    /// it) to `name` beside it, without the run's journal in its metadata:
    /// into a temporary file, flushed, then linked into place, so a backup is
    /// either whole or absent.
    ///
    /// - Throws: ``MigrationError`` (`fileInTheWay`) when a file of that name
    ///   exists; store and file-system errors otherwise.
    static func make(of store: URL, named name: String) throws {
        try refuseExisting(of: store, named: name)
        let directory = store.deletingLastPathComponent()
        let target = directory.appendingPathComponent(name)
        let temporary = directory.appendingPathComponent(".\(name).copying")
        for suffix in ["", "-wal", "-shm", "-journal"] {
            try? FileManager.default.removeItem(atPath: temporary.path + suffix)  // A killed copy.
        }
        defer { try? FileManager.default.removeItem(at: temporary) }  // Leftover only.
        try FileManager.default.copyItem(at: store, to: temporary)
        let copy = try Store.open(at: temporary)
        try copy.connection.inTransaction(.immediate) {
            try copy.writeMetadata(MigrationJournal.removed(from: copy.metadata))
        }
        try copy.close()
        let handle = try FileHandle(forUpdating: temporary)
        try handle.synchronize()
        try handle.close()
        try FileSystem.linkWithoutReplacing(temporary.path, to: target.path)
    }

    /// Removes the backup `name` beside `store`, if it is there.
    static func remove(of store: URL, named name: String) {
        let target = store.deletingLastPathComponent().appendingPathComponent(name)
        try? FileManager.default.removeItem(at: target)  // Gone already is fine.
    }
}
