import Foundation

/// A value as SQLite stores it: one of its five storage classes.
///
/// `SQLiteValue` is what statements bind and read when the caller does not
/// use the typed accessors. An empty blob (`.blob(Data())`) and `.null` are
/// different values, and SQLite keeps them apart.
///
/// Integer, float and string literals convert to values, so arguments can be
/// written inline:
///
/// ```swift
/// try connection.execute("INSERT INTO T(a, b, c) VALUES (?, ?, ?)", [1, 2.5, "x"])
/// ```
public enum SQLiteValue: Hashable, Sendable {
    /// SQL `NULL`.
    case null
    /// A 64-bit signed integer.
    case integer(Int64)
    /// An IEEE 754 double.
    case real(Double)
    /// UTF-8 text.
    case text(String)
    /// Raw bytes, possibly empty.
    case blob(Data)
}

// MARK: - Accessors

extension SQLiteValue {
    /// Whether the value is SQL `NULL`.
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// The integer, when the value is an integer.
    ///
    /// No conversion is made from other storage classes; `.real(1)` gives nil.
    public var int64Value: Int64? {
        if case .integer(let value) = self { return value }
        return nil
    }

    /// The number as a double, when the value is a real or an integer.
    ///
    /// Integers convert to the nearest double, as SQLite's own `CAST` does.
    public var doubleValue: Double? {
        switch self {
        case .real(let value): return value
        case .integer(let value): return Double(value)
        default: return nil
        }
    }

    /// The string, when the value is text.
    public var stringValue: String? {
        if case .text(let value) = self { return value }
        return nil
    }

    /// SQLite's name for the value's storage class: `NULL`, `INTEGER`,
    /// `REAL`, `TEXT` or `BLOB`, for messages.
    public var kind: String {
        switch self {
        case .null: "NULL"
        case .integer: "INTEGER"
        case .real: "REAL"
        case .text: "TEXT"
        case .blob: "BLOB"
        }
    }

    /// The bytes, when the value is a blob.
    public var dataValue: Data? {
        if case .blob(let value) = self { return value }
        return nil
    }
}

// MARK: - Literals

extension SQLiteValue: ExpressibleByIntegerLiteral {
    /// Creates an `.integer` value from an integer literal.
    ///
    /// - Parameter value: The literal.
    public init(integerLiteral value: Int64) {
        self = .integer(value)
    }
}

extension SQLiteValue: ExpressibleByFloatLiteral {
    /// Creates a `.real` value from a floating-point literal.
    ///
    /// - Parameter value: The literal.
    public init(floatLiteral value: Double) {
        self = .real(value)
    }
}

extension SQLiteValue: ExpressibleByStringLiteral {
    /// Creates a `.text` value from a string literal.
    ///
    /// - Parameter value: The literal.
    public init(stringLiteral value: String) {
        self = .text(value)
    }
}
