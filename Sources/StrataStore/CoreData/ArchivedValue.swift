import Foundation
import StrataCore

/// A value in a keyed archive after following its UID: a plain property list
/// value or an archived object.
///
/// The `…Value()` accessors accept both the plain form and the archived
/// object form of strings, data and collections, since archivers write
/// either (`"name"` or `{ $class: NSMutableString, NS.string: "name" }`).
public enum ArchivedValue {
    /// A value stored inline or as a plain entry of `$objects`.
    case plain(RecordValue)
    /// An object with a class.
    case object(ArchivedObject)

    /// The object; throws for a plain value.
    public func object() throws -> ArchivedObject {
        guard case .object(let object) = self else { throw mismatch("an object") }
        return object
    }

    /// The string of a plain string or of an `NSString` object (`NS.string`,
    /// or UTF-8 `NS.bytes`).
    public func stringValue() throws -> String {
        switch self {
        case .plain(.text(let string)):
            return string
        case .object(let object):
            // Only plain values one link away: following objects further
            // could loop on a hostile archive.
            if case .plain(.text(let string))? = try object.value("NS.string") {
                return string
            }
            if case .plain(.data(let bytes))? = try object.value("NS.bytes"),
                let string = String(bytes: bytes, encoding: .utf8)
            {
                return string
            }
            throw mismatch("a string")
        default:
            throw mismatch("a string")
        }
    }

    /// The bytes of plain data or of an `NSData` object (`NS.data` or
    /// `NS.bytes`).
    public func dataValue() throws -> Data {
        switch self {
        case .plain(.data(let data)):
            return data
        case .object(let object):
            for key in ["NS.data", "NS.bytes"] {
                if case .plain(.data(let data))? = try object.value(key) { return data }
            }
            throw mismatch("data")
        default:
            throw mismatch("data")
        }
    }

    /// An integer, or a boolean as 0 or 1.
    public func integerValue() throws -> Int64 {
        switch self {
        case .plain(.integer(let value)): return value
        case .plain(.boolean(let value)): return value ? 1 : 0
        default: throw mismatch("an integer")
        }
    }

    /// A boolean, or an integer as `!= 0`.
    public func boolValue() throws -> Bool {
        switch self {
        case .plain(.boolean(let value)): return value
        case .plain(.integer(let value)): return value != 0
        default: throw mismatch("a boolean")
        }
    }

    /// A real number, or an integer converted to one.
    public func realValue() throws -> Double {
        switch self {
        case .plain(.real(let value)): return value
        case .plain(.integer(let value)): return Double(value)
        default: throw mismatch("a number")
        }
    }

    /// A description of the value for error messages: its class or kind,
    /// never its contents.
    package var kind: String {
        switch self {
        case .object(let object): return object.className
        case .plain(let plain):
            switch plain {
            case .null: return "null"
            case .boolean: return "boolean"
            case .integer, .unsignedInteger: return "integer"
            case .real: return "real"
            case .date: return "date"
            case .data: return "data"
            case .text: return "string"
            case .uid: return "UID"
            case .array: return "array"
            case .set: return "set"
            case .dictionary: return "dictionary"
            }
        }
    }

    /// The error for a value of the wrong kind; the accessor that asked
    /// adds the key and the index of the object holding it.
    private func mismatch(_ expected: String) -> KeyedArchiveError {
        KeyedArchiveError("expected \(expected), found \(kind)")
    }
}
