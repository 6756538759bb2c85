import Foundation

/// The copy of a store kept beside it while a migration runs
/// (`<store>.strata-backup-v<version>`), removed only after the run
/// succeeded.
enum StoreBackup {
    /// The backup's file name for a store at `version`.
    static func name(of store: URL, version: Int) -> String {
        "\(store.lastPathComponent).strata-backup-v\(version)"
    }

    /// Copies the store's main file (the caller checkpointed its WAL into
    /// it) to `name` beside it: into a temporary file, flushed, then linked
    /// into place, so a backup is either whole or absent.
    ///
    /// - Throws: ``MigrationError`` (`fileInTheWay`) when a file of that name
    ///   exists; file-system errors otherwise.
    static func make(of store: URL, named name: String) throws {
        let directory = store.deletingLastPathComponent()
        let target = directory.appendingPathComponent(name)
        guard !FileManager.default.fileExists(atPath: target.path) else {
            throw MigrationError(
                .fileInTheWay,
                message: "\(target.relativePath) exists from an earlier run; move it away "
                    + "(it may be the only copy of an older store) and run again")
        }
        let temporary = directory.appendingPathComponent(".\(name).\(UUID().uuidString).copying")
        defer { try? FileManager.default.removeItem(at: temporary) }  // Leftover only.
        try FileManager.default.copyItem(at: store, to: temporary)
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
