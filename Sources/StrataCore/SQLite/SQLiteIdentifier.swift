import Foundation

/// Quoting of SQL identifiers (table, column, index and savepoint names).
///
/// Every identifier the package writes into SQL text goes through
/// ``quoted(_:)``, so a name read from a model or a file can never change the
/// meaning of a statement. Values are never spliced at all: they are bound.
///
/// ```swift
/// let sql = "SELECT \(SQLiteIdentifier.quoted("Z_PK")) FROM \(SQLiteIdentifier.quoted(table))"
/// ```
public enum SQLiteIdentifier {
    /// Returns the identifier in double quotes, with embedded quotes doubled.
    ///
    /// `Z_PK` becomes `"Z_PK"` and `a"b` becomes `"a""b"`. A name containing a
    /// NUL character cannot be expressed in SQL; the statement built from it
    /// fails to prepare (an error, not a different statement).
    ///
    /// - Parameter name: The identifier, as stored in the schema.
    /// - Returns: The quoted identifier, ready to splice into SQL text.
    public static func quoted(_ name: String) -> String {
        // Built byte by byte: Foundation's `replacingOccurrences` bridges to
        // NSString, which costs every fetch's SQL thousands of instructions.
        let quote = UInt8(ascii: "\"")
        var bytes: [UInt8] = [quote]
        bytes.reserveCapacity(name.utf8.count + 2)
        for byte in name.utf8 {
            bytes.append(byte)
            if byte == quote { bytes.append(quote) }
        }
        bytes.append(quote)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Whether the string is a plain identifier: ASCII letters, digits and
    /// underscores, not starting with a digit, and not empty.
    ///
    /// Plain identifiers are the only names accepted where SQLite gives no way
    /// to quote or bind, such as pragma names and pragma values.
    ///
    /// - Parameter name: The candidate identifier.
    /// - Returns: `true` when `name` is a plain identifier.
    public static func isPlain(_ name: String) -> Bool {
        guard let first = name.utf8.first, !isDigit(first) else { return false }
        return name.utf8.allSatisfy { isDigit($0) || isLetter($0) || $0 == UInt8(ascii: "_") }
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
            || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
    }
}
