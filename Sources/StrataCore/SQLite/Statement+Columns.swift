import CSQLite
import Foundation

extension Statement {
    /// The storage class of a value in the current row.
    public enum ColumnType: Sendable {
        /// `SQLITE_INTEGER`.
        case integer
        /// `SQLITE_FLOAT`.
        case real
        /// `SQLITE_TEXT`.
        case text
        /// `SQLITE_BLOB`.
        case blob
        /// `SQLITE_NULL`.
        case null
    }

    /// The number of columns in the statement's result (0 for non-queries).
    public var columnCount: Int32 {
        sqlite3_column_count(handle)
    }

    /// The name of the column at `index` (its `AS` alias, if any).
    ///
    /// - Parameter index: The 0-based column index.
    /// - Returns: The name; empty only if SQLite ran out of memory.
    public func columnName(_ index: Int32) -> String {
        checkColumn(index)
        // sqlite3_column_name returns NULL only when out of memory.
        guard let name = sqlite3_column_name(handle, index) else { return "" }
        return String(cString: name)
    }

    /// The names of all result columns, in order.
    public var columnNames: [String] {
        (0..<columnCount).map(columnName)
    }

    /// The storage class of the value at `index` in the current row.
    ///
    /// - Parameter index: The 0-based column index.
    /// - Returns: The column type of this row's value (types vary by row).
    public func columnType(_ index: Int32) -> ColumnType {
        checkColumn(index)
        switch sqlite3_column_type(handle, index) {
        case SQLITE_INTEGER: return .integer
        case SQLITE_FLOAT: return .real
        case SQLITE_TEXT: return .text
        case SQLITE_BLOB: return .blob
        default: return .null
        }
    }

    /// Whether the value at `index` in the current row is NULL.
    ///
    /// - Parameter index: The 0-based column index.
    public func isNull(at index: Int32) -> Bool {
        checkColumn(index)
        return sqlite3_column_type(handle, index) == SQLITE_NULL
    }

    /// The value at `index` as an integer, converted by SQLite's rules
    /// (NULL is 0, text is parsed, reals are truncated). Does not allocate.
    ///
    /// - Parameter index: The 0-based column index.
    public func int64(at index: Int32) -> Int64 {
        checkColumn(index)
        return sqlite3_column_int64(handle, index)
    }

    /// The value at `index` as a double, converted by SQLite's rules
    /// (NULL is 0.0). Does not allocate.
    ///
    /// - Parameter index: The 0-based column index.
    public func double(at index: Int32) -> Double {
        checkColumn(index)
        return sqlite3_column_double(handle, index)
    }

    /// The value at `index` as text, or nil for NULL.
    ///
    /// Numbers are converted to text by SQLite. Invalid UTF-8 is repaired
    /// with replacement characters rather than failing.
    ///
    /// - Parameter index: The 0-based column index.
    public func text(at index: Int32) -> String? {
        checkColumn(index)
        guard sqlite3_column_type(handle, index) != SQLITE_NULL else { return nil }
        // Call order matters: text first, then bytes (SQLite's documented order).
        guard let text = sqlite3_column_text(handle, index) else { return "" }
        let count = Int(sqlite3_column_bytes(handle, index))
        return String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
    }

    /// The value at `index` as text, for a column whose type in this row is
    /// known not to be NULL (one call to SQLite fewer than ``text(at:)``).
    ///
    /// - Parameter index: The 0-based column index.
    package func nonNullText(at index: Int32) -> String {
        checkColumn(index)
        // Call order matters: text first, then bytes (SQLite's documented order).
        guard let text = sqlite3_column_text(handle, index) else { return "" }
        let count = Int(sqlite3_column_bytes(handle, index))
        return String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
    }

    /// The value at `index` as bytes, or nil for NULL.
    ///
    /// An empty blob gives empty data. Text is returned as its UTF-8 bytes.
    ///
    /// - Parameter index: The 0-based column index.
    public func blob(at index: Int32) -> Data? {
        checkColumn(index)
        guard sqlite3_column_type(handle, index) != SQLITE_NULL else { return nil }
        // Call order matters: blob first, then bytes (SQLite's documented order).
        guard let bytes = sqlite3_column_blob(handle, index) else { return Data() }
        let count = Int(sqlite3_column_bytes(handle, index))
        return Data(bytes: bytes, count: count)
    }

    /// The value at `index` in its own storage class.
    ///
    /// - Parameter index: The 0-based column index.
    public func value(at index: Int32) -> SQLiteValue {
        switch columnType(index) {
        case .null: return .null
        case .integer: return .integer(sqlite3_column_int64(handle, index))
        case .real: return .real(sqlite3_column_double(handle, index))
        case .text: return text(at: index).map(SQLiteValue.text) ?? .null
        case .blob: return blob(at: index).map(SQLiteValue.blob) ?? .null
        }
    }

    /// All values of the current row, in column order.
    public func values() -> [SQLiteValue] {
        (0..<columnCount).map(value(at:))
    }

    /// Reading past the last column is undefined behaviour in SQLite, so it
    /// is caught here as the API misuse it is.
    private func checkColumn(_ index: Int32) {
        precondition(
            index >= 0 && index < checkedColumnCount,
            "column index \(index) out of range for `\(sql)`")
    }
}
