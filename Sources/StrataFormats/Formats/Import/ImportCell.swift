import Foundation
import StrataCore

/// One column's value of a row being imported, converted to what the store
/// keeps (coredata-format.md §1.4): dates as seconds since 2001, booleans
/// as 0/1, UUIDs as 16 bytes.
enum ImportCell {
    /// The input did not mention the attribute: its default applies.
    case absent
    /// The input gave no value (an empty field, `null`).
    case null
    /// An integer, a boolean as 0/1.
    case integer(Int64)
    /// A double, float, decimal or date.
    case real(Double)
    /// Text.
    case text(String)
    /// Text still in the reader's buffer, valid until the next record; the
    /// fast path binds it without copying.
    case utf8(UnsafeBufferPointer<UInt8>)
    /// Bytes.
    case blob(Data)

    /// Whether the cell holds a value.
    var hasValue: Bool {
        switch self {
        case .absent, .null: false
        default: true
        }
    }

    /// The same value, owning its text (for records kept past their row).
    var owned: ImportCell {
        if case .utf8(let bytes) = self { return .text(String(decoding: bytes, as: UTF8.self)) }
        return self
    }

    /// A canonical text of the value for key indexes (uniqueness, lookups).
    var keyText: String {
        switch self {
        case .absent, .null: "n"
        case .integer(let number): "i\(number)"
        case .real(let number): "r\(number)"
        case .text(let text): "t" + text
        case .utf8(let bytes): "t" + String(decoding: bytes, as: UTF8.self)
        case .blob(let data): "b" + data.base64EncodedString()
        }
    }

    /// The value as an SQLite parameter (owned).
    var sqliteValue: SQLiteValue {
        switch self {
        case .absent, .null: .null
        case .integer(let number): .integer(number)
        case .real(let number): .real(number)
        case .text(let text): .text(text)
        case .utf8(let bytes): .text(String(decoding: bytes, as: UTF8.self))
        case .blob(let data): .blob(data)
        }
    }

    /// Binds the value to parameter `index` of `statement`.
    func bind(to statement: Statement, at index: Int32) throws {
        switch self {
        case .absent, .null: try statement.bindNull(at: index)
        case .integer(let number): try statement.bind(number, at: index)
        case .real(let number): try statement.bind(number, at: index)
        case .text(let text): try statement.bind(text, at: index)
        case .utf8(let bytes): try statement.bind(utf8: bytes, at: index)
        case .blob(let data): try statement.bind(data, at: index)
        }
    }
}
