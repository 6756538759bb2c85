import Foundation

/// A value read from a property list, including the keyed archiver's UIDs.
///
/// Dictionaries have string keys (binary property lists allow other keys,
/// which ``BinaryPropertyList`` rejects). Sets keep the order of the file.
public enum PlistObject: Hashable, Sendable {
    /// The null marker (`0x00`) or the fill marker (`0x0F`).
    case null
    /// A boolean.
    case boolean(Bool)
    /// An integer. Values of 1, 2 or 4 bytes are unsigned in the file, 8-byte
    /// values signed; 16-byte values are accepted when they fit 64 bits.
    case integer(Int64)
    /// A 4- or 8-byte floating-point number.
    case real(Double)
    /// A date.
    case date(Date)
    /// Raw bytes.
    case data(Data)
    /// A string (ASCII or UTF-16 in the file).
    case string(String)
    /// A keyed archiver UID: an index into an archive's `$objects`.
    case uid(UInt64)
    /// An array.
    case array([PlistObject])
    /// A set, in file order.
    case set([PlistObject])
    /// A dictionary with string keys.
    case dictionary([String: PlistObject])

    /// The string, if this is a string.
    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The integer, if this is an integer.
    public var integerValue: Int64? {
        if case .integer(let value) = self { return value }
        return nil
    }

    /// The elements, if this is an array or a set.
    public var arrayValue: [PlistObject]? {
        switch self {
        case .array(let elements), .set(let elements): return elements
        default: return nil
        }
    }

    /// The entries, if this is a dictionary.
    public var dictionaryValue: [String: PlistObject]? {
        if case .dictionary(let entries) = self { return entries }
        return nil
    }

    /// The UID, if this is one.
    public var uidValue: UInt64? {
        if case .uid(let value) = self { return value }
        return nil
    }

    /// The value for `key`, if this is a dictionary that has it.
    public subscript(key: String) -> PlistObject? {
        dictionaryValue?[key]
    }
}
