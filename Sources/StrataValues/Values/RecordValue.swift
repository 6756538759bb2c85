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
/// Dictionaries and sets compare and hash without regard to order (JSON
/// objects, plist dicts and sets are unordered), arrays in order.
///
/// Text stays text: the importer converts it by the attribute it maps to (a
/// date from ISO 8601, a number from its digits), so readers do not guess.
public enum RecordValue: Sendable {
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
    /// An ordered list of values.
    case array([RecordField])
    /// An unordered collection, in the order it was read: a binary
    /// property list's set (`0xC`). Strata never writes one but to test
    /// readers; every consumer reads it as it reads an array.
    case set([RecordField])
    /// Keys and values in input order; each field's ``RecordField/key`` is the key.
    case dictionary([RecordField])
}

extension RecordValue {
    /// An array of `values`, each keyed by its index, without positions.
    public static func array(values: some Sequence<RecordValue>) -> RecordValue {
        .array(values.enumerated().map { RecordField(key: String($0), value: $1) })
    }

    /// A set of `values`, each keyed by its index, without positions.
    public static func set(values: some Sequence<RecordValue>) -> RecordValue {
        .set(values.enumerated().map { RecordField(key: String($0), value: $1) })
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

    /// The fields, if this is an array, a set or a dictionary.
    public var fields: [RecordField]? {
        switch self {
        case .array(let fields), .set(let fields), .dictionary(let fields): fields
        default: nil
        }
    }

    /// The elements' values, if this is an array or a set.
    public var elements: [RecordValue]? {
        switch self {
        case .array(let fields), .set(let fields): fields.map(\.value)
        default: nil
        }
    }

    /// The entries by key, if this is a dictionary; a repeated key keeps
    /// its last value.
    public var entries: [String: RecordValue]? {
        guard case .dictionary(let fields) = self else { return nil }
        var entries: [String: RecordValue] = [:]
        entries.reserveCapacity(fields.count)
        for field in fields { entries[field.key] = field.value }
        return entries
    }

    /// The value of the last field named `key`, if this is a dictionary that
    /// has one (a repeated key keeps its last value, as `JSONSerialization`
    /// and `PropertyListSerialization` do).
    public subscript(key: String) -> RecordValue? {
        guard case .dictionary(let fields) = self else { return nil }
        return fields.last { $0.key == key }?.value
    }
}

// Literals build values in code (metadata, archives, tests):
// `["NSStoreType": "SQLite", "NSStoreModelVersionHashes": [:]]`.

extension RecordValue: ExpressibleByDictionaryLiteral {
    /// A dictionary of the literal's entries, in the order written.
    public init(dictionaryLiteral elements: (String, RecordValue)...) {
        self = .dictionary(elements.map { RecordField(key: $0.0, value: $0.1) })
    }
}

extension RecordValue: ExpressibleByArrayLiteral {
    /// An array of the literal's elements.
    public init(arrayLiteral elements: RecordValue...) {
        self = .array(values: elements)
    }
}

extension RecordValue: ExpressibleByStringLiteral {
    /// Text.
    public init(stringLiteral value: String) {
        self = .text(value)
    }
}

extension RecordValue: ExpressibleByIntegerLiteral {
    /// An integer.
    public init(integerLiteral value: Int64) {
        self = .integer(value)
    }
}

extension RecordValue: ExpressibleByFloatLiteral {
    /// A real number.
    public init(floatLiteral value: Double) {
        self = .real(value)
    }
}

extension RecordValue: ExpressibleByBooleanLiteral {
    /// A boolean.
    public init(booleanLiteral value: Bool) {
        self = .boolean(value)
    }
}

extension RecordValue: Hashable {
    /// Whether two values are equal: dictionaries when they hold the same
    /// fields in any order, sets the same elements in any order.
    public static func == (left: RecordValue, right: RecordValue) -> Bool {
        switch (left, right) {
        case (.null, .null): true
        case (.boolean(let a), .boolean(let b)): a == b
        case (.integer(let a), .integer(let b)): a == b
        case (.unsignedInteger(let a), .unsignedInteger(let b)): a == b
        case (.real(let a), .real(let b)): a == b
        case (.text(let a), .text(let b)): a == b
        case (.date(let a), .date(let b)): a == b
        case (.data(let a), .data(let b)): a == b
        case (.uid(let a), .uid(let b)): a == b
        case (.array(let a), .array(let b)): a == b
        case (.set(let a), .set(let b)): sameMembers(a.map(\.value), b.map(\.value))
        case (.dictionary(let a), .dictionary(let b)): a == b || sameMembers(a, b)
        default: false
        }
    }

    /// Hashes the value consistently with ``==(_:_:)``: a container's
    /// members by an order-free sum of their hashes.
    public func hash(into hasher: inout Hasher) {
        switch self {
        case .null: hasher.combine(0)
        case .boolean(let value): hasher.combine(value)
        case .integer(let value): hasher.combine(value)
        case .unsignedInteger(let value): hasher.combine(value)
        case .real(let value): hasher.combine(value)
        case .text(let value): hasher.combine(value)
        case .date(let value): hasher.combine(value)
        case .data(let value): hasher.combine(value)
        case .uid(let value): hasher.combine(value)
        case .array(let fields): hasher.combine(fields)
        case .set(let fields):
            hasher.combine(fields.count)
            hasher.combine(fields.reduce(0) { $0 &+ $1.value.hashValue })
        case .dictionary(let fields):
            hasher.combine(fields.count)
            hasher.combine(fields.reduce(0) { $0 &+ $1.hashValue })
        }
    }

    /// Whether `a` and `b` hold the same members, each as often, in any order.
    private static func sameMembers<Member: Equatable>(_ a: [Member], _ b: [Member]) -> Bool {
        guard a.count == b.count else { return false }
        var unmatched = b
        for member in a {
            guard let index = unmatched.firstIndex(of: member) else { return false }
            unmatched.swapAt(index, unmatched.count - 1)
            unmatched.removeLast()
        }
        return true
    }
}
