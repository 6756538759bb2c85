import Foundation

/// A value with structure: what every nested format Strata reads or writes
/// holds — a JSON document, a property list (XML or binary, keyed archives
/// included), a txt block, a bundle's object — and what the mapping
/// language's `unarchive(x)` and `jsonValue(x)` give.
///
/// Containers hold ``RecordField``s: a dictionary's fields keep their keys
/// in input order (duplicates included, so a reader can report them), an
/// array's fields are keyed by their index. A field can carry where it was
/// read, for the errors that name it.
///
/// Text stays text: the importer converts it by the attribute it maps to (a
/// date from ISO 8601, a number from its digits), so readers do not guess.
public indirect enum RecordValue: Hashable, Sendable {
    /// No value: JSON `null`, a binary property list's null marker, `nil`.
    case null
    /// A boolean.
    case boolean(Bool)
    /// An integer (JSON numbers without fraction or exponent, plist `<integer>`).
    case integer(Int64)
    /// An unsigned integer above `Int64.max` (plist integers up to 2⁶⁴−1).
    case unsignedInteger(UInt64)
    /// A real number.
    case real(Double)
    /// A string.
    case text(String)
    /// A date (plist `<date>`, an archived `NSDate`).
    case date(Date)
    /// Bytes (plist `<data>`).
    case data(Data)
    /// A keyed archiver UID: an index into an archive's `$objects`.
    case uid(UInt64)
    /// An ordered list of values (a binary plist's set too, in file order).
    case array([RecordField])
    /// Keys and values in input order; each field's ``RecordField/key`` is the key.
    case dictionary([RecordField])
}

extension RecordValue {
    /// An array of `values`, each keyed by its index, without positions.
    public static func array(values: some Sequence<RecordValue>) -> RecordValue {
        .array(values.enumerated().map { RecordField(key: String($0), value: $1) })
    }

    /// A dictionary of `entries` in the order given, without positions.
    public static func dictionary(
        entries: some Sequence<(key: String, value: RecordValue)>
    ) -> RecordValue {
        .dictionary(entries.map { RecordField(key: $0.key, value: $0.value) })
    }

    /// The string, if this is text.
    public var textValue: String? {
        if case .text(let value) = self { return value }
        return nil
    }

    /// The integer, if this is a signed integer.
    public var integerValue: Int64? {
        if case .integer(let value) = self { return value }
        return nil
    }

    /// The UID, if this is one.
    public var uidValue: UInt64? {
        if case .uid(let value) = self { return value }
        return nil
    }

    /// The fields, if this is an array or a dictionary.
    public var fields: [RecordField]? {
        switch self {
        case .array(let fields), .dictionary(let fields): fields
        default: nil
        }
    }

    /// The elements' values, if this is an array.
    public var elements: [RecordValue]? {
        if case .array(let fields) = self { return fields.map(\.value) }
        return nil
    }

    /// The value of the last field named `key`, if this is a dictionary that
    /// has one (a repeated key keeps its last value, as `JSONSerialization`
    /// and `PropertyListSerialization` do).
    public subscript(key: String) -> RecordValue? {
        guard case .dictionary(let fields) = self else { return nil }
        return fields.last { $0.key == key }?.value
    }
}
