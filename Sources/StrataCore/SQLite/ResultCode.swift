import CSQLite
import Foundation

/// An SQLite result code, primary or extended.
///
/// SQLite reports errors with a primary code in the low byte
/// (`SQLITE_CONSTRAINT` is 19) and, when extended result codes are on (they
/// always are in Strata), a detail in the higher bytes
/// (`SQLITE_CONSTRAINT_UNIQUE` is 2067).
/// ``SQLiteError`` keeps the extended code; ``primaryResultCode`` recovers
/// the primary one.
///
/// A result code is a pattern for errors: a primary code matches every error
/// with that primary code, an extended code matches only itself.
///
/// ```swift
/// do {
///     try connection.execute("INSERT INTO T(x) VALUES (?)", [1])
/// } catch ResultCode.constraintUnique {
///     // duplicate
/// } catch ResultCode.constraint {
///     // any other constraint
/// }
/// ```
public struct ResultCode: RawRepresentable, Hashable, Sendable {
    /// The numeric code, as returned by the SQLite C API.
    public let rawValue: Int32

    /// Creates a result code from its numeric value.
    ///
    /// - Parameter rawValue: A primary or extended SQLite result code.
    public init(rawValue: Int32) {
        self.rawValue = rawValue
    }

    /// The primary code: the low byte of the extended code.
    ///
    /// `.constraintUnique.primaryResultCode == .constraint`.
    public var primaryResultCode: ResultCode {
        ResultCode(rawValue: rawValue & 0xFF)
    }

    /// Whether this is a primary code (no extended detail).
    public var isPrimary: Bool {
        rawValue & 0xFF == rawValue
    }
}

// MARK: - Primary codes

extension ResultCode {
    /// `SQLITE_OK` (0): success.
    public static let ok = ResultCode(rawValue: SQLITE_OK)
    /// `SQLITE_ERROR` (1): generic error, such as an SQL syntax error.
    public static let error = ResultCode(rawValue: SQLITE_ERROR)
    /// `SQLITE_PERM` (3): access permission denied.
    public static let permission = ResultCode(rawValue: SQLITE_PERM)
    /// `SQLITE_ABORT` (4): an operation was aborted, e.g. by a rollback.
    public static let abort = ResultCode(rawValue: SQLITE_ABORT)
    /// `SQLITE_BUSY` (5): the database file is locked by another connection.
    public static let busy = ResultCode(rawValue: SQLITE_BUSY)
    /// `SQLITE_LOCKED` (6): a table is locked within the same connection.
    public static let locked = ResultCode(rawValue: SQLITE_LOCKED)
    /// `SQLITE_NOMEM` (7): a memory allocation failed.
    public static let noMemory = ResultCode(rawValue: SQLITE_NOMEM)
    /// `SQLITE_READONLY` (8): an attempt to write to a read-only database.
    public static let readOnly = ResultCode(rawValue: SQLITE_READONLY)
    /// `SQLITE_INTERRUPT` (9): the operation was interrupted.
    public static let interrupt = ResultCode(rawValue: SQLITE_INTERRUPT)
    /// `SQLITE_IOERR` (10): a disk I/O error.
    public static let ioErr = ResultCode(rawValue: SQLITE_IOERR)
    /// `SQLITE_CORRUPT` (11): the database file is malformed.
    public static let corrupt = ResultCode(rawValue: SQLITE_CORRUPT)
    /// `SQLITE_FULL` (13): the disk or the database is full.
    public static let full = ResultCode(rawValue: SQLITE_FULL)
    /// `SQLITE_CANTOPEN` (14): the database file could not be opened.
    public static let cantOpen = ResultCode(rawValue: SQLITE_CANTOPEN)
    /// `SQLITE_SCHEMA` (17): the schema changed under a statement.
    public static let schema = ResultCode(rawValue: SQLITE_SCHEMA)
    /// `SQLITE_TOOBIG` (18): a string or blob exceeds SQLite's size limit.
    public static let tooBig = ResultCode(rawValue: SQLITE_TOOBIG)
    /// `SQLITE_CONSTRAINT` (19): a constraint was violated.
    public static let constraint = ResultCode(rawValue: SQLITE_CONSTRAINT)
    /// `SQLITE_MISMATCH` (20): a data type mismatch (e.g. a non-integer rowid).
    public static let mismatch = ResultCode(rawValue: SQLITE_MISMATCH)
    /// `SQLITE_MISUSE` (21): the library was used incorrectly.
    public static let misuse = ResultCode(rawValue: SQLITE_MISUSE)
    /// `SQLITE_RANGE` (25): a parameter index or count is out of range.
    public static let range = ResultCode(rawValue: SQLITE_RANGE)
    /// `SQLITE_NOTADB` (26): the file is not an SQLite database.
    public static let notADatabase = ResultCode(rawValue: SQLITE_NOTADB)
    /// `SQLITE_ROW` (100): `sqlite3_step` produced a row.
    public static let row = ResultCode(rawValue: SQLITE_ROW)
    /// `SQLITE_DONE` (101): `sqlite3_step` finished.
    public static let done = ResultCode(rawValue: SQLITE_DONE)
}

// MARK: - Extended codes

extension ResultCode {
    /// `SQLITE_CONSTRAINT_CHECK` (275): a `CHECK` constraint failed.
    public static let constraintCheck = ResultCode(rawValue: 275)
    /// `SQLITE_CONSTRAINT_FOREIGNKEY` (787): a foreign key constraint failed.
    public static let constraintForeignKey = ResultCode(rawValue: 787)
    /// `SQLITE_CONSTRAINT_NOTNULL` (1299): a `NOT NULL` constraint failed.
    public static let constraintNotNull = ResultCode(rawValue: 1299)
    /// `SQLITE_CONSTRAINT_PRIMARYKEY` (1555): a `PRIMARY KEY` constraint failed.
    public static let constraintPrimaryKey = ResultCode(rawValue: 1555)
    /// `SQLITE_CONSTRAINT_UNIQUE` (2067): a `UNIQUE` constraint failed.
    public static let constraintUnique = ResultCode(rawValue: 2067)
    /// `SQLITE_BUSY_SNAPSHOT` (517): a WAL read transaction became stale.
    public static let busySnapshot = ResultCode(rawValue: 517)
    /// `SQLITE_READONLY_DBMOVED` (1032): the database file was moved or deleted.
    public static let readOnlyDatabaseMoved = ResultCode(rawValue: 1032)
}

// MARK: - Pattern matching

extension ResultCode {
    /// Whether `code` matches the pattern `pattern`.
    ///
    /// A primary pattern matches every code with that primary code; an
    /// extended pattern matches only itself. `.constraint` matches
    /// `.constraintUnique`, but `.constraintUnique` does not match
    /// `.constraintNotNull`.
    ///
    /// - Parameters:
    ///   - pattern: The code written in the `case` or `catch` clause.
    ///   - code: The code being matched.
    /// - Returns: `true` when the code matches.
    public static func ~= (pattern: ResultCode, code: ResultCode) -> Bool {
        pattern.isPrimary ? pattern == code.primaryResultCode : pattern == code
    }

    /// Whether `error` is an ``SQLiteError`` whose code matches `pattern`.
    ///
    /// Lets callers write `catch ResultCode.constraint`. The matching rule
    /// is the one of `~=(ResultCode, ResultCode)`: a primary pattern matches
    /// its extended codes, an extended pattern matches only itself.
    ///
    /// - Parameters:
    ///   - pattern: The code written in the `catch` clause.
    ///   - error: The thrown error.
    /// - Returns: `true` when `error` is an `SQLiteError` with a matching code.
    public static func ~= (pattern: ResultCode, error: any Error) -> Bool {
        guard let error = error as? SQLiteError else { return false }
        return pattern ~= error.code
    }
}

// MARK: - Description

extension ResultCode: CustomStringConvertible {
    /// The number and SQLite's English name for it, e.g. `19 (constraint failed)`.
    public var description: String {
        // sqlite3_errstr never returns NULL for any int; guard anyway.
        guard let text = sqlite3_errstr(rawValue) else { return "\(rawValue)" }
        return "\(rawValue) (\(String(cString: text)))"
    }
}
