import CSQLite
import Foundation

/// The C handle of a compiled statement (`sqlite3_stmt *`).
typealias SQLiteStatementHandle = OpaquePointer

/// A compiled SQL statement: bind values, step through rows, read columns.
///
/// Create statements with ``Connection/prepare(_:)`` or, for SQL run many
/// times, ``Connection/cachedStatement(_:)``. A statement holds a strong
/// reference to its connection, so the connection stays open while the
/// statement exists. A prepared statement is finalized in `deinit`; a cached
/// one is reset and handed back to its connection's cache.
///
/// The bind–step–read path does not allocate for integers, doubles and
/// NULL, so a bulk import can reuse one statement for millions of rows:
///
/// ```swift
/// let insert = try connection.cachedStatement("INSERT INTO T(a, b) VALUES (?, ?)")
/// for (a, b) in pairs {
///     try insert.bind(a, at: 1)
///     try insert.bind(b, at: 2)
///     try insert.execute()
/// }
/// ```
public final class Statement {
    /// The connection the statement was compiled on; kept alive by it.
    public let connection: Connection

    /// The SQL text the statement was compiled from.
    public let sql: String

    /// The compiled statement.
    let handle: SQLiteStatementHandle

    /// Whether `handle` belongs to the connection's statement cache.
    private let isCached: Bool

    /// `sqlite3_column_count` as of the last step (or the compilation), for
    /// the column reads' range check: it changes only when SQLite compiles
    /// the statement again, which happens inside a step. Reading it here
    /// instead of calling SQLite saves a call per column read.
    private(set) var checkedColumnCount: Int32

    init(connection: Connection, handle: SQLiteStatementHandle, sql: String, isCached: Bool) {
        self.connection = connection
        self.handle = handle
        self.sql = sql
        self.isCached = isCached
        self.checkedColumnCount = sqlite3_column_count(handle)
    }

    deinit {
        if isCached {
            // reset repeats the last step's error, which step() already threw;
            // clear_bindings always succeeds.
            sqlite3_reset(handle)
            sqlite3_clear_bindings(handle)
            connection.returnCachedStatement(sql)
        } else {
            // finalize repeats the last step's error, which step() already threw.
            sqlite3_finalize(handle)
        }
    }

    // MARK: - Stepping

    /// Advances to the next row.
    ///
    /// After the last row, `step()` returns `false`; stepping again starts the
    /// statement over. On error the statement is reset, so it can be run again.
    ///
    /// - Returns: `true` when a row is available to read, `false` when done.
    /// - Throws: ``SQLiteError`` with this statement's SQL (no bound values),
    ///   or the error a registered SQL function threw.
    public func step() throws -> Bool {
        let code = sqlite3_step(handle)
        if code == SQLITE_ROW {
            checkedColumnCount = sqlite3_column_count(handle)
            return true
        }
        if code == SQLITE_DONE { return false }
        let error: any Error =
            connection.functionErrors.take(for: code)
            ?? SQLiteError(resultCode: code, handle: connection.handle, sql: sql)
        // reset repeats the error we just read; it releases the statement's locks.
        sqlite3_reset(handle)
        throw error
    }

    /// Rewinds the statement so it can run again; bindings are kept.
    public func reset() {
        // reset repeats the error of the last step, which step() already threw.
        sqlite3_reset(handle)
    }

    /// Sets every parameter back to NULL.
    public func clearBindings() {
        // sqlite3_clear_bindings always returns SQLITE_OK.
        sqlite3_clear_bindings(handle)
    }

    /// Steps through every row, calling `body` with the statement positioned
    /// on each one, then resets the statement.
    ///
    /// ```swift
    /// try statement.forEachRow { row in
    ///     names.append(row.text(at: 0) ?? "")
    /// }
    /// ```
    ///
    /// - Parameter body: Reads the current row through the statement.
    /// - Throws: ``SQLiteError``, or what `body` throws; the statement is
    ///   reset either way.
    public func forEachRow(_ body: (Statement) throws -> Void) throws {
        defer { reset() }
        while try step() {
            try body(self)
        }
    }

    /// Runs the statement to completion with its current bindings, discarding
    /// any rows, then resets it (bindings are kept).
    ///
    /// - Throws: ``SQLiteError``.
    public func execute() throws {
        defer { reset() }
        while try step() {}
    }

    /// Binds `arguments`, runs the statement to completion discarding any
    /// rows, then resets it.
    ///
    /// - Parameter arguments: One value per parameter, in order.
    /// - Throws: ``SQLiteError``; ``ResultCode/range`` when the number of
    ///   arguments differs from the number of parameters.
    public func execute(_ arguments: [SQLiteValue]) throws {
        try bind(arguments)
        try execute()
    }
}
