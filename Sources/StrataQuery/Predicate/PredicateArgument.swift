/// An argument substituted into a predicate's format string.
///
/// `%@`, `%d`, `%i`, `%ld`, `%f` and `%s` take a ``value(_:)``; `%K` takes a
/// ``keyPath(_:)``.
///
/// ```swift
/// let p = try FetchPredicate("%K > %d", arguments: [.keyPath("age"), .value(.integer(3))])
/// ```
public enum PredicateArgument: Hashable, Sendable {
    /// A value for `%@`, `%d`, `%i`, `%ld`, `%f` or `%s`.
    case value(PredicateValue)
    /// A key path for `%K`, such as `"diaryEntry.creationTime"`.
    case keyPath(String)
}

extension PredicateArgument {
    /// A string value.
    public static func string(_ string: String) -> PredicateArgument { .value(.string(string)) }

    /// An integer value.
    public static func integer(_ integer: Int64) -> PredicateArgument {
        .value(.integer(integer))
    }

    /// A real value.
    public static func real(_ real: Double) -> PredicateArgument { .value(.real(real)) }

    /// An array value, for `IN %@` and `BETWEEN %@`.
    public static func array(_ values: [PredicateValue]) -> PredicateArgument {
        .value(.array(values))
    }
}

extension PredicateValue {
    /// The value's kind, for messages (which never show the value itself).
    var kindName: String {
        switch self {
        case .null: "nil"
        case .boolean: "a boolean"
        case .integer: "an integer"
        case .real: "a real number"
        case .string: "a string"
        case .date: "a date"
        case .data: "bytes"
        case .uuid: "a UUID"
        case .object: "an object"
        case .array: "an array"
        }
    }
}
