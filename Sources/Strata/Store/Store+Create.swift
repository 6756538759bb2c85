import Foundation

// MARK: - Creating a store

extension Store {
    /// Creates an empty store for `model` at `url` and opens it.
    ///
    /// The store is built in a temporary file beside `url` and linked into
    /// place only when complete, so a process killed at any moment leaves
    /// either no store or a whole one. An existing file is never replaced.
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
        let path = url.relativePath
        let fileManager = FileManager.default
        guard !fileManager.fileExists(atPath: path) else {
            throw StoreError(
                .alreadyExists, path: path, message: "a file already exists here; not replacing it")
        }
        let directory = url.deletingLastPathComponent()
        let temporary = directory.appendingPathComponent(
            ".\(url.lastPathComponent).\(UUID().uuidString).creating")
        defer {
            for suffix in ["", "-journal", "-wal", "-shm"] {
                try? fileManager.removeItem(atPath: temporary.path + suffix)  // Leftovers only.
            }
        }

        let connection = try Connection(path: temporary.path, mode: .readWriteCreate)
        do {
            try build(connection, model: model)
            try connection.close()
        } catch {
            try? connection.close()  // The build error is the one to report.
            throw error
        }
        try FileSystem.linkWithoutReplacing(temporary.path, to: path)
        return try open(at: url)
    }

    /// Creates Core Data's tables and bookkeeping rows for `model` in an
    /// empty database, in one transaction.
    private static func build(_ connection: Connection, model: Model) throws {
        // auto_vacuum must be chosen before the first table exists; page size
        // and WAL as Core Data sets them (coredata-format.md §1.1).
        try connection.setPragma("page_size", "4096")
        try connection.setPragma("auto_vacuum", "2")
        let layout = StoreLayout(model: model)
        let metadata = StoreMetadata(model: model)
        try connection.inTransaction(.immediate) {
            for statement in layout.createStatements {
                try connection.execute(statement)
            }
            let insertEntity = try connection.prepare(
                "INSERT INTO Z_PRIMARYKEY (Z_ENT, Z_NAME, Z_SUPER, Z_MAX) VALUES (?, ?, ?, 0)")
            for entity in layout.entities {
                try insertEntity.execute([
                    .integer(Int64(entity.number)), .text(entity.name),
                    .integer(Int64(entity.superNumber)),
                ])
            }
            try connection.execute(
                "INSERT INTO Z_METADATA (Z_VERSION, Z_UUID, Z_PLIST) VALUES (1, ?, ?)",
                [.text(metadata.uuid), .blob(try metadata.plistData())])
        }
        // Switching to WAL outside the transaction; closing the last
        // connection checkpoints and removes the -wal file.
        try connection.setPragma("journal_mode", "WAL")
    }
}
