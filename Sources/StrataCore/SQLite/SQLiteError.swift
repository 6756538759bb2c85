import CSQLite
import Foundation

/// An error reported by SQLite, or by Strata's SQLite layer on SQLite's terms.
///
/// It holds the extended result code, SQLite's message, and the SQL being run.
/// It never holds bound values, so its text is safe to log: values of records
/// do not leak into logs or user-facing messages.
///
/// Match errors by code with `catch SQLiteError.constraint` (or the
/// equivalent `catch ResultCode.constraint`). The static members of
/// `SQLiteError` named after codes are ``ResultCode`` values, and a result
/// code matches an error through `ResultCode`'s `~=(ResultCode, any Error)`
/// operator (a primary code matches its extended codes):
///
/// ```swift
/// do {
///     try connection.execute("INSERT INTO T(x) VALUES (?)", [1])
/// } catch SQLiteError.constraint {
///     // UNIQUE, NOT NULL, CHECK...: any constraint
/// }
/// ```
public struct SQLiteError: Error, Hashable, Sendable {
    /// The extended result code, such as ``ResultCode/constraintUnique``.
    public var code: ResultCode
    /// SQLite's message (`sqlite3_errmsg`), such as
    /// `UNIQUE constraint failed: T.x`.
    public var message: String
    /// The SQL being run when the error occurred, when there was one.
    public var sql: String?

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - code: The extended (or primary) result code.
    ///   - message: What went wrong, without bound values.
    ///   - sql: The SQL being run, if any.
    public init(code: ResultCode, message: String, sql: String? = nil) {
        self.code = code
        self.message = message
        self.sql = sql
    }

    /// Reads the error of `handle` after a C call returned `resultCode`.
    ///
    /// The connection's extended code and message describe the last failed
    /// call. Some calls (misuse, `sqlite3_open_v2` without a handle) return a
    /// code without recording it; then the returned code and its generic text
    /// are used instead.
    init(resultCode: CInt, handle: SQLiteConnectionHandle?, sql: String?) {
        if let handle {
            let extended = sqlite3_extended_errcode(handle)
            if extended & 0xFF == resultCode & 0xFF, let text = sqlite3_errmsg(handle) {
                self.init(
                    code: ResultCode(rawValue: extended), message: String(cString: text), sql: sql)
                return
            }
        }
        let text = sqlite3_errstr(resultCode).map { String(cString: $0) } ?? "unknown error"
        self.init(code: ResultCode(rawValue: resultCode), message: text, sql: sql)
    }
}

// MARK: - Description

extension SQLiteError: CustomStringConvertible, LocalizedError {
    /// The stable text of the error, e.g.
    /// `SQLite error 19: UNIQUE constraint failed: T.x - while executing`
    /// followed by the SQL in backquotes.
    ///
    /// The number is the primary code; the `- while executing` part is left
    /// out when there is no SQL. This prefix is stable: tools may parse it.
    public var description: String {
        var text = "SQLite error \(code.primaryResultCode.rawValue): \(message)"
        if let sql {
            text += " - while executing `\(sql)`"
        }
        return text
    }

    /// The same text as ``description``, for `localizedDescription`.
    public var errorDescription: String? {
        description
    }
}

// MARK: - Kinds

extension SQLiteError {
    /// Whether the error is about the database's files or the machine (a
    /// full disk, an I/O error, a damaged or unopenable file, memory), not
    /// about the statement or the values it was given: such an error is
    /// never one record's fault.
    public var isAboutTheFiles: Bool {
        let primary = code.primaryResultCode
        return [
            ResultCode.full, .ioErr, .cantOpen, .corrupt, .notADatabase, .noMemory, .permission,
            .readOnly,
        ].contains(primary)
    }
}

// MARK: - Patterns

extension SQLiteError {
    /// Pattern for `catch SQLiteError.error`: ``ResultCode/error``.
    public static let error = ResultCode.error
    /// Pattern for `catch SQLiteError.abort`: ``ResultCode/abort``.
    public static let abort = ResultCode.abort
    /// Pattern for `catch SQLiteError.busy`: ``ResultCode/busy``.
    public static let busy = ResultCode.busy
    /// Pattern for `catch SQLiteError.locked`: ``ResultCode/locked``.
    public static let locked = ResultCode.locked
    /// Pattern for `catch SQLiteError.readOnly`: ``ResultCode/readOnly``.
    public static let readOnly = ResultCode.readOnly
    /// Pattern for `catch SQLiteError.interrupt`: ``ResultCode/interrupt``.
    public static let interrupt = ResultCode.interrupt
    /// Pattern for `catch SQLiteError.ioErr`: ``ResultCode/ioErr``.
    public static let ioErr = ResultCode.ioErr
    /// Pattern for `catch SQLiteError.corrupt`: ``ResultCode/corrupt``.
    public static let corrupt = ResultCode.corrupt
    /// Pattern for `catch SQLiteError.full`: ``ResultCode/full``.
    public static let full = ResultCode.full
    /// Pattern for `catch SQLiteError.cantOpen`: ``ResultCode/cantOpen``.
    public static let cantOpen = ResultCode.cantOpen
    /// Pattern for `catch SQLiteError.schema`: ``ResultCode/schema``.
    public static let schema = ResultCode.schema
    /// Pattern for `catch SQLiteError.constraint`: ``ResultCode/constraint``.
    public static let constraint = ResultCode.constraint
    /// Pattern for `catch SQLiteError.constraintUnique`: ``ResultCode/constraintUnique``.
    public static let constraintUnique = ResultCode.constraintUnique
    /// Pattern for `catch SQLiteError.constraintNotNull`: ``ResultCode/constraintNotNull``.
    public static let constraintNotNull = ResultCode.constraintNotNull
    /// Pattern for `catch SQLiteError.misuse`: ``ResultCode/misuse``.
    public static let misuse = ResultCode.misuse
    /// Pattern for `catch SQLiteError.range`: ``ResultCode/range``.
    public static let range = ResultCode.range
    /// Pattern for `catch SQLiteError.notADatabase`: ``ResultCode/notADatabase``.
    public static let notADatabase = ResultCode.notADatabase
}
