import Foundation
import StrataStore

/// A store's backup copied but not yet in place (``StoreBackup/begin(of:named:)``):
/// the copy still gets its marker, is flushed to disk and linked under its
/// name. That work touches the copy only, so a migration does it on another
/// thread while its first lossy stage runs, and waits for it before that
/// stage commits (the commit names the backup in the journal).
final class PendingBackup: @unchecked Sendable {
    /// The store the copy is of.
    let store: URL
    /// The backup's file name beside the store.
    let name: String
    /// The copy while it is being made (`.<name>.copying`).
    let temporary: URL
    private let uuid: String
    private let group = DispatchGroup()
    private let lock = NSLock()
    private var outcome: Result<Void, any Error>?

    init(store: URL, named name: String, uuid: String) {
        self.store = store
        self.name = name
        self.uuid = uuid
        temporary = store.deletingLastPathComponent().appendingPathComponent(".\(name).copying")
    }

    /// Marks, flushes and links the copy on this thread.
    package func finish() throws {
        do {
            try complete()
        } catch {
            removeWorkFiles()
            throw error
        }
    }

    /// Starts ``finish()`` on another thread; ``wait()`` gives its outcome.
    func finishInBackground() {
        group.enter()
        DispatchQueue.global(qos: .userInitiated).async { [self] in
            let result = Result { try finish() }
            lock.withLock { outcome = result }
            group.leave()
        }
    }

    /// Waits for ``finishInBackground()`` and rethrows what stopped it.
    func wait() throws {
        group.wait()
        try lock.withLock { outcome }?.get()
    }

    /// Waits for the copy, then removes it, wherever it got to (a stage
    /// that failed after the backup was started).
    func discard() {
        group.wait()
        removeWorkFiles()
        StoreBackup.remove(of: store, named: name)
    }

    /// Removes the temporary copy and its companions.
    func removeWorkFiles() {
        for suffix in ["", "-wal", "-shm", "-journal"] {
            try? FileManager.default.removeItem(atPath: temporary.path + suffix)  // Gone is fine.
        }
    }

    private func complete() throws {
        let copy = try Store.open(at: temporary)
        var metadata = MigrationJournal.removed(from: copy.metadata)
        metadata.otherKeys[StoreBackup.markerKey] = .text(uuid)
        try copy.connection.inTransaction(.immediate) { try copy.writeMetadata(metadata) }
        try copy.close()  // Checkpoints the copy's WAL into its file.
        let handle = try FileHandle(forUpdating: temporary)
        try handle.synchronize()
        try handle.close()
        try FileSystem.linkWithoutReplacing(
            temporary.path,
            to: store.deletingLastPathComponent().appendingPathComponent(name).path)
        removeWorkFiles()  // The name stays linked; the -shm the open left goes.
    }
}
