import Foundation

// MARK: - Writing alongside other processes

extension Store {
    /// Runs `body` — one write transaction of a save — holding the store's
    /// ``StoreLock`` shared, so it never lands in the middle of a migration
    /// another process (or this one) is running; waits up to the
    /// connection's busy timeout for a migration to finish.
    ///
    /// - Throws: ``StoreError`` (`locked`) when a migration holds the lock
    ///   past the wait; whatever `body` throws.
    package func withSharedLock<T>(_ body: () throws -> T) throws -> T {
        let lock = try StoreLock(
            for: url, mode: .shared, waitingUpTo: connection.busyTimeout)
        defer { lock.release() }
        return try body()
    }

    /// Throws when the store's version hashes are no longer the ones it had
    /// when this ``Store`` read them: another process migrated the file in
    /// the meantime, and rows written with the old version's entity numbers
    /// and columns would corrupt it. Run it inside the write transaction.
    ///
    /// - Parameter verified: The metadata plist last found to match, kept by
    ///   the caller: while the stored plist is byte for byte the same, it is
    ///   not decoded again.
    /// - Throws: ``StoreError`` (`versionChanged`); ``StoreError`` or
    ///   ``SQLiteError`` when the metadata cannot be read.
    package func checkVersionUnchanged(verified: inout Data?) throws {
        let plist = try connection.cachedStatement(
            "SELECT Z_UUID, Z_PLIST FROM Z_METADATA WHERE Z_VERSION = 1")
        guard try plist.step(), let uuid = plist.text(at: 0), let data = plist.blob(at: 1) else {
            throw StoreError(
                .corruptMetadata, path: path, message: "Z_METADATA has no row with Z_VERSION 1")
        }
        if data == verified { return }
        let live = try StoreMetadata(uuid: uuid, plist: data, path: path)
        guard live.versionHashes == metadata.versionHashes else {
            let version = live.modelVersion.map { " (now version \($0))" } ?? ""
            throw StoreError(
                .versionChanged, path: path,
                message: "the store was migrated to another model version\(version) since it "
                    + "was opened; nothing was written. Open it again with that version")
        }
        verified = data
    }
}
