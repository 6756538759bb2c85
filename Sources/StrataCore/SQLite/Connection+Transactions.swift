import CSQLite
import Foundation

extension Connection {
    /// When a transaction takes its write lock.
    public enum TransactionKind: Sendable {
        /// `BEGIN DEFERRED`: locks are taken on first read and first write.
        case deferred
        /// `BEGIN IMMEDIATE`: the write lock is taken at once, so the
        /// transaction cannot fail later with ``ResultCode/busy`` on upgrade.
        case immediate
        /// `BEGIN EXCLUSIVE`: like immediate; in rollback-journal mode other
        /// connections cannot read either.
        case exclusive

        var beginSQL: String {
            switch self {
            case .deferred: return "BEGIN DEFERRED TRANSACTION"
            case .immediate: return "BEGIN IMMEDIATE TRANSACTION"
            case .exclusive: return "BEGIN EXCLUSIVE TRANSACTION"
            }
        }
    }

    /// Whether a transaction is open (`sqlite3_get_autocommit` is off).
    public var isInTransaction: Bool {
        sqlite3_get_autocommit(handle) == 0
    }

    /// Runs `body` in a transaction: commits when it returns, rolls back when
    /// it throws.
    ///
    /// Transactions do not nest; inside one, use ``inSavepoint(_:)``. If the
    /// rollback itself fails, the error thrown by `body` is the one rethrown.
    ///
    /// ```swift
    /// try connection.inTransaction {
    ///     try connection.execute("INSERT INTO T(x) VALUES (?)", [1])
    ///     try connection.execute("INSERT INTO T(x) VALUES (?)", [2])
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - kind: When to take the write lock; `.immediate` by default.
    ///   - body: The work; its result is returned after the commit.
    /// - Returns: What `body` returned.
    /// - Throws: What `body` threw, or ``SQLiteError`` from `BEGIN` or
    ///   `COMMIT` (after a failed commit the transaction is rolled back).
    public func inTransaction<T>(
        _ kind: TransactionKind = .immediate, _ body: () throws -> T
    ) throws -> T {
        try execute(kind.beginSQL)
        let result: T
        do {
            result = try body()
            try execute("COMMIT TRANSACTION")
        } catch {
            rollbackIgnoringErrors()
            throw error
        }
        return result
    }

    /// Makes the first read of the open transaction (of the schema), which
    /// fixes the snapshot the transaction reads and takes the read lock:
    /// the database stays as it is now for the transaction, so its file may
    /// be copied as it stands (with the write lock also held, no other
    /// writer can grow the WAL meanwhile).
    ///
    /// - Throws: ``SQLiteError``.
    public func fixSnapshot() throws {
        _ = try scalar("SELECT COUNT(*) FROM sqlite_master")
    }

    /// Runs `body` inside a savepoint: released when it returns, rolled back
    /// to (then released) when it throws.
    ///
    /// Savepoints nest, inside or outside ``inTransaction(_:_:)``: an inner
    /// failure undoes only the inner work. Outside a transaction, the
    /// outermost savepoint acts as a deferred transaction.
    ///
    /// - Parameter body: The work.
    /// - Returns: What `body` returned.
    /// - Throws: What `body` threw, or ``SQLiteError`` from the savepoint
    ///   statements (if `RELEASE` fails, the savepoint is rolled back).
    public func inSavepoint<T>(_ body: () throws -> T) throws -> T {
        savepointCounter += 1
        let name = SQLiteIdentifier.quoted("strata_savepoint_\(savepointCounter)")
        try execute("SAVEPOINT \(name)")
        let result: T
        do {
            result = try body()
            try execute("RELEASE SAVEPOINT \(name)")
        } catch {
            // The original error wins over a failure to undo: when SQLite has
            // already rolled the whole transaction back (e.g. after SQLITE_FULL),
            // the savepoint is gone and these statements fail harmlessly.
            try? execute("ROLLBACK TRANSACTION TO SAVEPOINT \(name)")
            try? execute("RELEASE SAVEPOINT \(name)")
            throw error
        }
        return result
    }

    /// Opens a transaction that ``commit()`` or
    /// ``rollbackIgnoringErrors()`` ends: for work that commits in several
    /// transactions on its way (an import committing every so many
    /// records); otherwise prefer ``inTransaction(_:_:)``.
    ///
    /// - Parameter kind: When to take the write lock; `.immediate` by default.
    /// - Throws: ``SQLiteError`` (e.g. ``ResultCode/busy``).
    public func beginTransaction(_ kind: TransactionKind = .immediate) throws {
        try execute(kind.beginSQL)
    }

    /// Commits the open transaction.
    ///
    /// - Throws: ``SQLiteError``; the transaction may still be open then.
    public func commit() throws {
        try execute("COMMIT TRANSACTION")
    }

    /// Rolls back the open transaction, if any; errors are dropped because
    /// the caller is already throwing a more relevant one.
    public func rollbackIgnoringErrors() {
        // SQLite may have rolled back by itself (SQLITE_FULL, IOERR, BUSY on
        // COMMIT in some modes); a second ROLLBACK would only fail.
        guard isInTransaction else { return }
        try? execute("ROLLBACK TRANSACTION")
    }
}
