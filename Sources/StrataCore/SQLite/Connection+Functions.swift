import CSQLite
import Foundation

/// The C handle of one call's argument values (`sqlite3_value **`).
typealias SQLiteArgumentsHandle = UnsafeMutablePointer<OpaquePointer?>

/// The arguments of one call of an SQL function registered with
/// ``Connection/registerFunction(_:argumentCount:deterministic:_:)``.
///
/// Text can be read without copying (``withUTF8(at:_:)``), which matters for
/// a function that SQLite calls once per row of a scan.
public struct SQLFunctionArguments {
    private let handle: SQLiteArgumentsHandle
    /// The number of arguments.
    public let count: Int

    init(handle: SQLiteArgumentsHandle, count: Int) {
        self.handle = handle
        self.count = count
    }

    private func value(_ index: Int) -> OpaquePointer? {
        precondition(index >= 0 && index < count, "argument \(index) of \(count)")
        return handle[index]
    }

    /// Whether argument `index` is NULL.
    public func isNull(at index: Int) -> Bool {
        sqlite3_value_type(value(index)) == SQLITE_NULL
    }

    /// Argument `index` as an integer (SQLite's conversion rules apply).
    public func int64(at index: Int) -> Int64 {
        sqlite3_value_int64(value(index))
    }

    /// Argument `index` as a string; nil for NULL.
    public func text(at index: Int) -> String? {
        withUTF8(at: index) { $0.map { String(decoding: $0, as: UTF8.self) } }
    }

    /// Argument `index` as the value SQLite holds, of its own type.
    public func value(at index: Int) -> SQLiteValue {
        let argument = value(index)
        switch sqlite3_value_type(argument) {
        case SQLITE_INTEGER: return .integer(sqlite3_value_int64(argument))
        case SQLITE_FLOAT: return .real(sqlite3_value_double(argument))
        case SQLITE_TEXT: return text(at: index).map { .text($0) } ?? .null
        case SQLITE_BLOB:
            let count = Int(sqlite3_value_bytes(argument))
            guard count > 0, let bytes = sqlite3_value_blob(argument) else { return .blob(Data()) }
            return .blob(Data(bytes: bytes, count: count))
        default: return .null
        }
    }

    /// Calls `body` with the UTF-8 bytes of argument `index` (nil for NULL).
    /// The buffer is only valid during the call.
    public func withUTF8<Result>(
        at index: Int, _ body: (UnsafeBufferPointer<UInt8>?) throws -> Result
    ) rethrows -> Result {
        let argument = value(index)
        guard sqlite3_value_type(argument) != SQLITE_NULL,
            let bytes = sqlite3_value_text(argument)
        else { return try body(nil) }
        // value_bytes must follow value_text (the text conversion may change it).
        let length = Int(sqlite3_value_bytes(argument))
        return try body(UnsafeBufferPointer(start: bytes, count: length))
    }
}

/// The Swift body of a registered function, kept alive by SQLite until the
/// function is replaced or the connection closes (`xDestroy`).
private final class SQLFunctionBox {
    let body: (SQLFunctionArguments) throws -> SQLiteValue
    let errors: SQLFunctionErrorSlot
    init(
        _ body: @escaping (SQLFunctionArguments) throws -> SQLiteValue,
        errors: SQLFunctionErrorSlot
    ) {
        self.body = body
        self.errors = errors
    }
}

/// The error a registered function threw during the current statement step,
/// which the step rethrows as it is instead of SQLite's text of it. Shared by
/// a connection and the functions registered on it.
final class SQLFunctionErrorSlot {
    var error: (any Error)?

    /// The error thrown, once, when `code` is the `SQLITE_ERROR` it caused.
    func take(for code: CInt) -> (any Error)? {
        defer { error = nil }
        return code & 0xFF == SQLITE_ERROR ? error : nil
    }
}

/// The Swift order of a registered collation, released by SQLite.
private final class SQLCollationBox {
    let compare: (String, String) -> Int
    init(_ compare: @escaping (String, String) -> Int) { self.compare = compare }
}

extension Connection {
    /// Registers (or replaces) a collation implemented in Swift, for
    /// `ORDER BY x COLLATE name`.
    ///
    /// - Parameters:
    ///   - name: The collation's SQL name.
    ///   - compare: A total order on strings: negative, zero or positive.
    /// - Throws: ``SQLiteError`` when SQLite refuses the registration.
    public func registerCollation(_ name: String, _ compare: @escaping (String, String) -> Int)
        throws
    {
        let box = Unmanaged.passRetained(SQLCollationBox(compare)).toOpaque()
        let code = sqlite3_create_collation_v2(
            handle, name, SQLITE_UTF8, box,
            { user, leftCount, left, rightCount, right in
                guard let user else { return 0 }
                let box = Unmanaged<SQLCollationBox>.fromOpaque(user).takeUnretainedValue()
                func text(_ bytes: UnsafeRawPointer?, _ count: Int32) -> String {
                    guard let bytes, count > 0 else { return "" }
                    return String(
                        decoding: UnsafeRawBufferPointer(start: bytes, count: Int(count)),
                        as: UTF8.self)
                }
                let order = box.compare(text(left, leftCount), text(right, rightCount))
                return order < 0 ? -1 : (order > 0 ? 1 : 0)
            },
            { user in
                guard let user else { return }
                Unmanaged<SQLCollationBox>.fromOpaque(user).release()
            })
        if code != SQLITE_OK {
            // Unlike create_function_v2, a failed create_collation_v2 does not
            // call xDestroy.
            Unmanaged<SQLCollationBox>.fromOpaque(box).release()
        }
        try check(code, sql: nil)
    }

    /// Registers (or replaces) a scalar SQL function implemented in Swift.
    ///
    /// The function is called on the connection's thread, once per row that
    /// needs it, so `body` should not allocate more than it must. An error
    /// `body` throws ends the statement: the step that ran it rethrows that
    /// very error (SQL run by SQLite itself sees `SQLITE_ERROR` with the
    /// error's description).
    ///
    /// ```swift
    /// try connection.registerFunction("double_it", argumentCount: 1) { arguments in
    ///     .integer(arguments.int64(at: 0) * 2)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - name: The SQL name of the function.
    ///   - argumentCount: The number of arguments it takes (-1: any).
    ///   - deterministic: Whether the same arguments always give the same
    ///     result, which lets SQLite call it once for constant arguments and
    ///     use it in indexes on expressions.
    ///   - body: Computes the result from the arguments.
    /// - Throws: ``SQLiteError`` when SQLite refuses the registration.
    public func registerFunction(
        _ name: String, argumentCount: Int, deterministic: Bool = true,
        _ body: @escaping (SQLFunctionArguments) throws -> SQLiteValue
    ) throws {
        var flags = SQLITE_UTF8
        if deterministic { flags |= SQLITE_DETERMINISTIC }
        let box = Unmanaged.passRetained(SQLFunctionBox(body, errors: functionErrors)).toOpaque()
        // On failure SQLite calls xDestroy itself, releasing the box.
        let code = sqlite3_create_function_v2(
            handle, name, Int32(argumentCount), flags, box,
            { context, count, values in
                guard let context, let values,
                    let user = sqlite3_user_data(context)
                else { return }
                let box = Unmanaged<SQLFunctionBox>.fromOpaque(user).takeUnretainedValue()
                do {
                    let result = try box.body(
                        SQLFunctionArguments(handle: values, count: Int(count)))
                    Connection.setResult(result, of: context)
                } catch {
                    box.errors.error = error
                    sqlite3_result_error(context, "\(error)", -1)
                }
            },
            nil, nil,
            { user in
                guard let user else { return }
                Unmanaged<SQLFunctionBox>.fromOpaque(user).release()
            })
        try check(code, sql: nil)
    }

    private static func setResult(_ value: SQLiteValue, of context: OpaquePointer) {
        switch value {
        case .null:
            sqlite3_result_null(context)
        case .integer(let number):
            sqlite3_result_int64(context, number)
        case .real(let number):
            sqlite3_result_double(context, number)
        case .text(let text) where text.isEmpty:
            // A nil pointer would make the result NULL, not ''.
            sqlite3_result_text(context, "", 0, nil)
        case .blob(let data) where data.isEmpty:
            sqlite3_result_zeroblob(context, 0)
        case .text(let text):
            var text = text
            text.withUTF8 { bytes in
                bytes.withMemoryRebound(to: CChar.self) {
                    sqlite3_result_text64(
                        context, $0.baseAddress, UInt64($0.count), strata_sqlite_transient(),
                        UInt8(SQLITE_UTF8))
                }
            }
        case .blob(let data):
            data.withUnsafeBytes { bytes in
                sqlite3_result_blob64(
                    context, bytes.baseAddress, UInt64(bytes.count), strata_sqlite_transient())
            }
        }
    }
}
