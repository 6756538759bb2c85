import Foundation
import StrataCore
import StrataSchema

// MARK: - Creating a store

extension Store {
    /// Creates an empty store for `model` at `url` and opens it.
    ///
    /// The store is built in a hidden file beside `url`
    /// (`.<name>.strata-creating`) and linked into place only when complete,
    /// so a process killed at any moment leaves either no store or a whole
    /// one; the next create replaces a hidden file a killed one left. An
    /// existing file is never replaced.
    ///
    /// - Parameters:
    ///   - url: Where the store goes; nothing may exist there yet.
    ///   - model: The schema version the store is for; it should have passed
    ///     validation.
    /// - Returns: The new store, open for writing.
    /// - Throws: ``StoreError`` (`alreadyExists`) when a file is in the way,
    ///   or an SQLite or file-system error.
    @discardableResult
    public static func create(at url: URL, model: Model) throws -> Store {
        try create(at: url, model: model, filling: nil)
    }

    /// Creates a store at `url` for `model` and fills it before anyone can
    /// see it: `fill` writes into the store while it is still a hidden file
    /// beside the target, and the store is linked into place only when
    /// `fill` returns. Nobody else can have the file open, so it is filled
    /// with SQLite's rollback journal (every page written once) and turned
    /// to WAL, as Core Data keeps it, at the end.
    ///
    /// ```swift
    /// let store = try Store.create(at: url, model: model) { fresh in
    ///     let context = try Context(store: fresh, model: model)
    ///     try context.insert("Note").set("title", "Welcome")
    ///     try context.save()
    /// }
    /// ```
    ///
    /// - Throws: What ``create(at:model:)`` throws, or what `fill` throws;
    ///   then nothing is left at `url` or beside it.
    @discardableResult
    public static func create(
        at url: URL, model: Model, filling fill: ((Store) throws -> Void)?
    ) throws -> Store {
        try make(at: url, model: model, filling: fill)
        return try open(at: url)
    }

    /// Does what ``create(at:model:filling:)`` does but open the finished
    /// store: for a caller that only needs the file (opening creates the
    /// WAL files, and closing checkpoints and removes them).
    package static func make(
        at url: URL, model: Model, filling fill: ((Store) throws -> Void)?
    ) throws {
        let path = url.relativePath
        let fileManager = FileManager.default
        guard !fileManager.fileExists(atPath: path) else {
            throw StoreError(
                .alreadyExists, path: path, message: "a file already exists here; not replacing it")
        }
        // Everything that takes time is computed before the first file
        // exists, so a process killed meanwhile leaves nothing behind.
        let layout = StoreLayout(model: model)
        let metadata = StoreMetadata(model: model)

        // A fixed hidden name beside the target, locked while in use: a
        // leftover of a killed create is found and replaced by the next one,
        // and two creates of one store cannot build in the same file.
        let temporary = temporaryPath(for: url)
        let lock = try FileSystem.CreationLock(temporary, storePath: path)
        defer {
            for suffix in ["", "-journal", "-wal", "-shm"] {
                unlinkLeftover(temporary + suffix)
            }
            lock.release()
        }

        let connection: Connection
        do {
            connection = try Connection(path: temporary, mode: .readWriteCreate)
        } catch let error as SQLiteError {
            throw StoreError(
                .readOnly, path: path,
                message: "cannot create the store file beside it (\(temporary)): \(error.message)")
        }
        do {
            try build(connection, layout: layout, metadata: metadata, walMode: fill == nil)
            try connection.close()
        } catch let error as SQLiteError {
            try? connection.close()  // The build error is the one to report.
            throw StoreError(
                .schemaMismatch, path: path,
                message: "cannot create the store's tables: \(error.message); nothing was created")
        } catch {
            try? connection.close()  // The build error is the one to report.
            throw error
        }
        if let fill {
            // Nobody else has the hidden file open: its pages can be written
            // in large pieces.
            let fresh = try open(
                at: URL(fileURLWithPath: temporary), mode: .readWrite,
                vfs: CoalescingWrites.vfsName)
            do {
                try fill(fresh)
                try fresh.connection.setPragma("journal_mode", "WAL")
                try fresh.close()
            } catch {
                try? fresh.close()  // The fill's error is the one to report.
                throw error
            }
        }
        try FileSystem.linkWithoutReplacing(temporary, to: path)
    }

    /// The hidden file a store is built in before it is linked into place:
    /// `.<name>.strata-creating` in the same folder (so the link is atomic).
    static func temporaryPath(for url: URL) -> String {
        url.deletingLastPathComponent()
            .appendingPathComponent(".\(url.lastPathComponent).strata-creating").relativePath
    }

    private static func unlinkLeftover(_ path: String) {
        // Leftovers only: a missing file is the usual case.
        try? FileManager.default.removeItem(atPath: path)
    }

    /// Creates Core Data's tables and bookkeeping rows for `model` in an
    /// empty database, in one transaction.
    private static func build(
        _ connection: Connection, layout: StoreLayout, metadata: StoreMetadata, walMode: Bool
    ) throws {
        // auto_vacuum must be chosen before the first table exists; page size
        // and WAL as Core Data sets them (coredata-format.md §1.1).
        try connection.setPragma("page_size", "4096")
        try connection.setPragma("auto_vacuum", "2")
        try connection.inTransaction(.immediate) {
            for statement in layout.createStatements {
                try connection.execute(statement)
            }
            try KeyAllocator.recordEntities(layout.entities, on: connection)
            try connection.execute(
                "INSERT INTO Z_METADATA (Z_VERSION, Z_UUID, Z_PLIST) VALUES (1, ?, ?)",
                [.text(metadata.uuid), .blob(try metadata.plistData())])
        }
        // Switching to WAL outside the transaction; closing the last
        // connection checkpoints and removes the -wal file.
        if walMode { try connection.setPragma("journal_mode", "WAL") }
    }
}
