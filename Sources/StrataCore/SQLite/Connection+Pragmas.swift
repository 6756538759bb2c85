import CSQLite
import Foundation

extension Connection {
    /// The journal modes of `PRAGMA journal_mode`.
    public enum JournalMode: String, Sendable, CaseIterable {
        /// The rollback journal is deleted at the end of each transaction.
        case delete
        /// The rollback journal is truncated to zero bytes.
        case truncate
        /// The rollback journal's header is zeroed.
        case persist
        /// The rollback journal is kept in memory.
        case memory
        /// Write-ahead log: readers do not block the writer. Core Data's default.
        case wal
        /// No journal; a crash can corrupt the file.
        case off
    }

    /// Reads a pragma that returns one value, such as `user_version`.
    ///
    /// - Parameter name: The pragma's name: letters, digits and underscores.
    /// - Returns: The first column of the first row, or nil if none.
    /// - Throws: ``ResultCode/misuse`` when `name` is not a plain identifier
    ///   (it is never spliced into SQL otherwise); ``SQLiteError``.
    public func pragma(_ name: String) throws -> SQLiteValue? {
        try validatePragmaName(name)
        return try scalar("PRAGMA \(name)")
    }

    /// Sets a pragma, e.g. `setPragma("synchronous", "NORMAL")`.
    ///
    /// Rows the pragma returns are discarded.
    ///
    /// - Parameters:
    ///   - name: The pragma's name: letters, digits and underscores.
    ///   - value: A plain identifier or a (signed) integer; pragmas take no
    ///     bound parameters, so nothing else is allowed.
    /// - Throws: ``ResultCode/misuse`` for a name or value of another shape;
    ///   ``SQLiteError`` from SQLite.
    public func setPragma(_ name: String, _ value: String) throws {
        try validatePragmaName(name)
        guard SQLiteIdentifier.isPlain(value) || Self.isInteger(value) else {
            throw SQLiteError(
                code: .misuse, message: "pragma value must be an identifier or an integer",
                sql: "PRAGMA \(name)")
        }
        try execute("PRAGMA \(name) = \(value)")
    }

    /// The journal mode of the main database.
    ///
    /// - Throws: ``SQLiteError``; ``ResultCode/error`` for a mode this
    ///   enum does not know.
    public var journalMode: JournalMode {
        get throws {
            try journalMode(from: scalar("PRAGMA journal_mode"))
        }
    }

    /// Changes the journal mode and returns the mode now in effect.
    ///
    /// SQLite may refuse a change without an error (an in-memory database
    /// stays in `memory`), so compare the result when it matters.
    ///
    /// - Parameter mode: The wanted mode.
    /// - Returns: The mode in effect afterwards.
    /// - Throws: ``SQLiteError`` (e.g. ``ResultCode/busy`` inside a transaction).
    @discardableResult
    public func setJournalMode(_ mode: JournalMode) throws -> JournalMode {
        try journalMode(from: scalar("PRAGMA journal_mode = \(mode.rawValue)"))
    }

    /// The `user_version` number stored in the database header (0 in a new file).
    ///
    /// - Throws: ``SQLiteError``.
    public var userVersion: Int {
        get throws {
            Int(try scalar("PRAGMA user_version")?.int64Value ?? 0)
        }
    }

    /// Sets the `user_version` number in the database header.
    ///
    /// - Parameter version: The new number (it fits in 32 bits).
    /// - Throws: ``SQLiteError``.
    public func setUserVersion(_ version: Int32) throws {
        try execute("PRAGMA user_version = \(version)")
    }

    /// Runs `PRAGMA integrity_check` and returns its report.
    ///
    /// - Returns: `["ok"]` for a sound file, otherwise one line per problem
    ///   (at most 100).
    /// - Throws: ``SQLiteError`` (``ResultCode/notADatabase`` or
    ///   ``ResultCode/corrupt`` when the file cannot be read at all).
    public func integrityCheck() throws -> [String] {
        var lines: [String] = []
        try prepare("PRAGMA integrity_check").forEachRow { row in
            lines.append(row.text(at: 0) ?? "")
        }
        return lines
    }

    /// Whether closing the last connection to a WAL database copies the WAL
    /// into the main file and removes it (SQLite's default, on).
    ///
    /// Turned off, a connection that only read — or wrote nothing it kept —
    /// leaves the store's files as it found them: a migration refused
    /// before it wrote does not fold an app's WAL into the file.
    ///
    /// - Throws: ``SQLiteError``.
    public func setCheckpointsOnClose(_ enabled: Bool) throws {
        var result: Int32 = 0
        try check(
            strata_sqlite_db_config_int(
                handle, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, enabled ? 0 : 1, &result))
    }

    /// Copies the write-ahead log into the database file.
    ///
    /// Does nothing useful, and fails not, outside WAL mode (both counts are
    /// then -1).
    ///
    /// - Parameter truncate: `false` for a passive checkpoint that never
    ///   waits; `true` to wait for readers and writers (up to the busy
    ///   timeout) and truncate the log to zero bytes.
    /// - Returns: The frames in the log and the frames checkpointed.
    /// - Throws: ``ResultCode/busy`` when a truncating checkpoint could not
    ///   finish; ``SQLiteError``.
    @discardableResult
    public func walCheckpoint(truncate: Bool = false) throws -> (
        logFrames: Int, checkpointedFrames: Int
    ) {
        var logFrames: Int32 = 0
        var checkpointedFrames: Int32 = 0
        let mode = truncate ? SQLITE_CHECKPOINT_TRUNCATE : SQLITE_CHECKPOINT_PASSIVE
        let code = sqlite3_wal_checkpoint_v2(handle, nil, mode, &logFrames, &checkpointedFrames)
        try check(code, sql: truncate ? "PRAGMA wal_checkpoint(TRUNCATE)" : nil)
        return (Int(logFrames), Int(checkpointedFrames))
    }

    // MARK: - Validation

    private func validatePragmaName(_ name: String) throws {
        guard SQLiteIdentifier.isPlain(name) else {
            throw SQLiteError(code: .misuse, message: "pragma name must be an identifier")
        }
    }

    private static func isInteger(_ text: String) -> Bool {
        let digits = text.first == "-" || text.first == "+" ? text.dropFirst() : Substring(text)
        return !digits.isEmpty && digits.utf8.allSatisfy { $0 >= 48 && $0 <= 57 }
    }

    private func journalMode(from value: SQLiteValue?) throws -> JournalMode {
        guard let name = value?.stringValue, let mode = JournalMode(rawValue: name.lowercased())
        else {
            throw SQLiteError(
                code: .error, message: "unexpected journal mode", sql: "PRAGMA journal_mode")
        }
        return mode
    }
}
