import CSQLite
import Foundation

/// The C handle of an open database connection (`sqlite3 *`).
typealias SQLiteConnectionHandle = OpaquePointer

/// An open connection to an SQLite database file.
///
/// A connection owns its `sqlite3` handle: it opens it in ``init(path:mode:)``
/// and closes it in ``close()``. Statements keep their connection alive, so
/// the handle outlives every statement prepared on it. If a connection is
/// released without ``close()``, `deinit` closes it with `sqlite3_close_v2`
/// and writes a warning to standard error; close explicitly to see errors.
///
/// A connection is used from one thread at a time (it is not `Sendable`).
/// Extended result codes are on and the busy timeout is 5 seconds.
///
/// `PRAGMA foreign_keys` is left off: Core Data stores declare no SQL foreign
/// keys (relationships are plain integer columns that Strata maintains), so
/// there is nothing for SQLite to enforce.
///
/// ```swift
/// let connection = try Connection(path: path)
/// try connection.execute("CREATE TABLE T(x INTEGER)")
/// try connection.execute("INSERT INTO T(x) VALUES (?)", [42])
/// let x = try connection.scalar("SELECT x FROM T")  // .integer(42)
/// try connection.close()
/// ```
public final class Connection {
    /// The path the connection was opened with.
    public let path: String

    /// The handle; nil once ``close()`` succeeded.
    private var openHandle: SQLiteConnectionHandle?

    /// Statements prepared by ``cachedStatement(_:)``, keyed by SQL.
    ///
    /// The connection owns (and finalizes) these handles; a `Statement`
    /// handed out for one borrows it and gives it back in its `deinit`.
    private var statementCache: [String: CachedStatement] = [:]

    /// Counter that makes savepoint names unique on this connection.
    var savepointCounter = 0

    /// The error a registered function threw in the running step.
    let functionErrors = SQLFunctionErrorSlot()

    private struct CachedStatement {
        let handle: SQLiteStatementHandle
        var isInUse: Bool
    }

    /// The default for ``busyTimeout``: 5 seconds.
    public static let defaultBusyTimeout: TimeInterval = 5

    /// Opens (or creates) the database file at `path`.
    ///
    /// The file is not read until the first statement runs, so a file that is
    /// not a database opens fine and fails on first use with
    /// ``ResultCode/notADatabase``.
    ///
    /// - Parameters:
    ///   - path: A file path (not a URI). `":memory:"` opens a private
    ///     in-memory database.
    ///   - mode: Read-only, read-write, or read-write creating the file.
    /// - Throws: ``SQLiteError`` (``ResultCode/cantOpen`` for a missing file
    ///   or directory) whose message names the path.
    public init(path: String, mode: OpenMode = .readWriteCreate) throws {
        self.path = path
        self.openHandle = try Connection.open(
            path: mode.fileName(for: path), flags: mode.flags, vfs: nil)
    }

    /// Opens the database file at `path` through the SQLite VFS named `vfs`
    /// (``CoalescingWrites/vfsName``), or the default one when nil.
    package init(path: String, mode: OpenMode, vfs: String?) throws {
        self.path = path
        self.openHandle = try Connection.open(
            path: mode.fileName(for: path), flags: mode.flags, vfs: vfs)
    }

    /// Opens and configures a handle; closes it again on any failure.
    private static func open(path: String, flags: CInt, vfs: String?) throws
        -> SQLiteConnectionHandle
    {
        var handle: SQLiteConnectionHandle?
        var code = sqlite3_open_v2(path, &handle, flags, vfs)
        if code == SQLITE_OK, let handle {
            code = sqlite3_extended_result_codes(handle, 1)
            if code == SQLITE_OK {
                let milliseconds = Int32(defaultBusyTimeout * 1000)
                code = sqlite3_busy_timeout(handle, milliseconds)
            }
            if code == SQLITE_OK {
                return handle
            }
        }
        var error = SQLiteError(resultCode: code, handle: handle, sql: nil)
        error.message += " (path: \(path))"
        // The half-opened handle must be closed anyway; close_v2 on nil is a
        // no-op, and its own result cannot add to the error we are throwing.
        sqlite3_close_v2(handle)
        throw error
    }

    /// Closes the connection, finalizing the cached statements first.
    ///
    /// Closing twice is allowed; the second call does nothing. After a
    /// successful close, using the connection is a programming error.
    ///
    /// - Throws: ``ResultCode/busy`` while statements prepared on this
    ///   connection are still alive; the connection then stays open.
    public func close() throws {
        guard let handle = openHandle else { return }
        finalizeIdleCachedStatements()
        let code = sqlite3_close(handle)
        if code != SQLITE_OK {
            throw SQLiteError(resultCode: code, handle: handle, sql: nil)
        }
        openHandle = nil
    }

    deinit {
        guard let handle = openHandle else { return }
        // No Statement can be alive here (each keeps its connection alive),
        // so every cached handle is idle.
        finalizeIdleCachedStatements()
        let code = sqlite3_close_v2(handle)
        let message =
            "Strata warning: SQLite connection to \(path) was not closed with close(); "
            + "closed in deinit (result \(code)).\n"
        FileHandle.standardError.write(Data(message.utf8))
    }

    /// Whether ``close()`` has succeeded.
    public var isClosed: Bool {
        openHandle == nil
    }

    /// The open handle.
    ///
    /// Using a closed connection is API misuse, not a runtime condition.
    var handle: SQLiteConnectionHandle {
        guard let openHandle else {
            preconditionFailure("Connection to \(path) used after close()")
        }
        return openHandle
    }

    // MARK: - Result codes

    /// The one funnel for SQLite result codes.
    ///
    /// Returns for `SQLITE_OK`, `SQLITE_ROW` and `SQLITE_DONE`; throws an
    /// ``SQLiteError`` with the connection's extended code and message for
    /// anything else. Errors are built in one place,
    /// `SQLiteError.init(resultCode:handle:sql:)`, which this calls; paths
    /// that must read the error before a cleanup call use that directly.
    ///
    /// - Parameters:
    ///   - code: What the C function returned.
    ///   - sql: The SQL being run, for the error's context.
    /// - Throws: ``SQLiteError`` when `code` is an error.
    func check(_ code: CInt, sql: String? = nil) throws {
        if code == SQLITE_OK || code == SQLITE_ROW || code == SQLITE_DONE {
            return
        }
        if let thrown = functionErrors.take(for: code) { throw thrown }
        throw SQLiteError(resultCode: code, handle: openHandle, sql: sql)
    }

    // MARK: - Settings and counters

    /// How long a statement waits for another connection's lock before
    /// failing with ``ResultCode/busy``. Defaults to 5 seconds.
    public var busyTimeout: TimeInterval = Connection.defaultBusyTimeout {
        didSet {
            let milliseconds = Int32(clamping: Int((max(busyTimeout, 0) * 1000).rounded()))
            // sqlite3_busy_timeout only fails for an invalid handle, which
            // `handle` already rules out; a setter cannot throw anyway.
            _ = sqlite3_busy_timeout(handle, milliseconds)
        }
    }

    /// The rowid of the last successful `INSERT` on this connection.
    public var lastInsertRowID: Int64 {
        sqlite3_last_insert_rowid(handle)
    }

    /// The number of rows changed by the last `INSERT`, `UPDATE` or `DELETE`.
    public var changes: Int {
        Int(sqlite3_changes(handle))
    }

    /// The number of rows changed since the connection was opened.
    public var totalChanges: Int {
        Int(sqlite3_total_changes(handle))
    }

    /// Whether the main database was opened read-only (or can only be read).
    public var isReadOnly: Bool {
        sqlite3_db_readonly(handle, "main") == 1
    }

    // MARK: - Running SQL

    /// Runs one or more SQL statements, separated by semicolons.
    ///
    /// Rows produced by the statements are discarded. Statements before a
    /// failing one stay applied unless the caller wraps the call in a
    /// transaction.
    ///
    /// - Parameter sql: SQL text without parameters.
    /// - Throws: ``SQLiteError`` naming the statement that failed.
    public func execute(_ sql: String) throws {
        let handle = self.handle
        try sql.withCString { start in
            var next: UnsafePointer<CChar>? = start
            while let current = next, current.pointee != 0 {
                var statement: SQLiteStatementHandle?
                var tail: UnsafePointer<CChar>?
                let code = sqlite3_prepare_v3(handle, current, -1, 0, &statement, &tail)
                try check(code, sql: sql)
                next = tail
                // A nil statement is a stretch of whitespace or comments.
                guard let statement else { continue }
                defer {
                    // finalize repeats the last step's result, checked below.
                    sqlite3_finalize(statement)
                }
                var stepCode: CInt
                repeat {
                    stepCode = sqlite3_step(statement)
                } while stepCode == SQLITE_ROW
                let statementSQL = sqlite3_sql(statement).map { String(cString: $0) } ?? sql
                try check(stepCode, sql: statementSQL)
            }
        }
    }

    /// Runs one SQL statement with bound arguments.
    ///
    /// - Parameters:
    ///   - sql: One SQL statement with `?` (or `?NNN`, `:name`) parameters.
    ///   - arguments: The values for the parameters, in order.
    /// - Throws: ``SQLiteError``; ``ResultCode/range`` when the number of
    ///   arguments differs from the number of parameters.
    public func execute(_ sql: String, _ arguments: [SQLiteValue]) throws {
        let statement = try prepare(sql)
        try statement.execute(arguments)
    }

    /// Returns the first column of the first row of a query, or nil when
    /// there is no row.
    ///
    /// - Parameters:
    ///   - sql: One SQL query.
    ///   - arguments: The values for its parameters.
    /// - Returns: The value (possibly `.null`), or nil when the query is empty.
    /// - Throws: ``SQLiteError``.
    public func scalar(_ sql: String, _ arguments: [SQLiteValue] = []) throws -> SQLiteValue? {
        let statement = try prepare(sql)
        try statement.bind(arguments)
        guard try statement.step(), statement.columnCount > 0 else { return nil }
        return statement.value(at: 0)
    }

    // MARK: - Preparing statements

    /// Compiles one SQL statement.
    ///
    /// - Parameter sql: Exactly one SQL statement; a trailing semicolon,
    ///   whitespace and comments are allowed.
    /// - Returns: A statement that keeps this connection alive.
    /// - Throws: ``SQLiteError``; ``ResultCode/misuse`` when `sql` holds no
    ///   statement or more than one.
    public func prepare(_ sql: String) throws -> Statement {
        let statement = try compile(sql, flags: 0)
        return Statement(connection: self, handle: statement, sql: sql, isCached: false)
    }

    /// Returns a compiled statement for `sql` from the connection's cache,
    /// compiling it on first use.
    ///
    /// The statement comes back reset, with its bindings cleared. Releasing
    /// it returns it to the cache. While one statement for `sql` is in use,
    /// asking again gives a separate, uncached statement, so two callers
    /// never share a cursor. The cache lives until ``close()``.
    ///
    /// - Parameter sql: Exactly one SQL statement; it is the cache key.
    /// - Returns: A statement that keeps this connection alive.
    /// - Throws: ``SQLiteError``, as ``prepare(_:)``.
    public func cachedStatement(_ sql: String) throws -> Statement {
        if let entry = statementCache[sql] {
            if entry.isInUse {
                return try prepare(sql)
            }
            // reset repeats the last step's error, which was already thrown.
            sqlite3_reset(entry.handle)
            // clear_bindings always returns SQLITE_OK.
            sqlite3_clear_bindings(entry.handle)
            statementCache[sql]?.isInUse = true
            return Statement(connection: self, handle: entry.handle, sql: sql, isCached: true)
        }
        let handle = try compile(sql, flags: CUnsignedInt(SQLITE_PREPARE_PERSISTENT))
        statementCache[sql] = CachedStatement(handle: handle, isInUse: true)
        return Statement(connection: self, handle: handle, sql: sql, isCached: true)
    }

    /// Called by a cached `Statement` when it is released.
    func returnCachedStatement(_ sql: String) {
        statementCache[sql]?.isInUse = false
    }

    /// The number of statements in the cache (for tests and diagnostics).
    var cachedStatementCount: Int {
        statementCache.count
    }

    private func finalizeIdleCachedStatements() {
        for (sql, entry) in statementCache where !entry.isInUse {
            // finalize repeats the last step's error, which was already thrown.
            sqlite3_finalize(entry.handle)
            statementCache[sql] = nil
        }
    }

    /// Compiles exactly one statement, or throws.
    private func compile(_ sql: String, flags: CUnsignedInt) throws -> SQLiteStatementHandle {
        let handle = self.handle
        return try sql.withCString { start in
            var statement: SQLiteStatementHandle?
            var tail: UnsafePointer<CChar>?
            try check(sqlite3_prepare_v3(handle, start, -1, flags, &statement, &tail), sql: sql)
            guard let statement else {
                throw SQLiteError(code: .misuse, message: "no SQL statement to prepare", sql: sql)
            }
            guard let tail, tail.pointee != 0 else { return statement }
            // Something follows: compile it to tell comments from a second statement.
            var extra: SQLiteStatementHandle?
            let code = sqlite3_prepare_v3(handle, tail, -1, 0, &extra, nil)
            if code == SQLITE_OK && extra == nil { return statement }
            // Read the error before finalizing, which may touch the error state.
            let error =
                code == SQLITE_OK
                ? SQLiteError(
                    code: .misuse,
                    message: "prepare(_:) takes one statement; use execute(_:) for several",
                    sql: sql)
                : SQLiteError(resultCode: code, handle: handle, sql: sql)
            // Both finalize calls are cleanup on the way to throwing `error`.
            sqlite3_finalize(extra)
            sqlite3_finalize(statement)
            throw error
        }
    }
}
