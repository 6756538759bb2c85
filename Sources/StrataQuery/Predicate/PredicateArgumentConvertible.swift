import Foundation
import StrataStore

/// A Swift value that can fill a `%@` (or `%d`, `%f`, `%K`…) of a predicate
/// format: `"Home"`, `3`, `Date()`, a UUID, a managed object, an array for
/// `IN %@`, or a ``PredicateArgument`` itself.
///
/// ```swift
/// let recent = try FetchPredicate("title == %@ AND wordCount > %d", "Home", 3)
/// ```
public protocol PredicateArgumentConvertible {
    /// The value as a predicate argument.
    var predicateArgument: PredicateArgument { get }
}

extension PredicateArgument: PredicateArgumentConvertible {
    /// The argument itself.
    public var predicateArgument: PredicateArgument { self }
}

extension PredicateValue: PredicateArgumentConvertible {
    /// The value as a `%@` argument.
    public var predicateArgument: PredicateArgument { .value(self) }
}

extension ObjectID: PredicateArgumentConvertible {
    /// The object as a `%@` argument.
    public var predicateArgument: PredicateArgument { .value(.object(self)) }
}

extension Array: PredicateArgumentConvertible where Element: PredicateArgumentConvertible {
    /// The elements as one array value, for `IN %@` and `BETWEEN %@`; key
    /// paths among them become their names.
    public var predicateArgument: PredicateArgument {
        .value(
            .array(
                map {
                    switch $0.predicateArgument {
                    case .value(let value): value
                    case .keyPath(let path): .string(path)
                    }
                }))
    }
}

extension Optional: PredicateArgumentConvertible where Wrapped: PredicateArgumentConvertible {
    /// The wrapped value's argument, or `nil` (`NULL`).
    public var predicateArgument: PredicateArgument {
        self?.predicateArgument ?? .value(.null)
    }
}

// The leading-dot forms (`.string("Home")`, `.keyPath("title")`) keep
// working where a plain value is taken. (`value` and `keyPath` repeat the
// enum's cases, so they step aside wherever the enum itself is expected.)
extension PredicateArgumentConvertible where Self == PredicateArgument {
    /// A string value.
    public static func string(_ string: String) -> PredicateArgument { .value(.string(string)) }

    /// An integer value.
    public static func integer(_ integer: Int64) -> PredicateArgument { .value(.integer(integer)) }

    /// A real value.
    public static func real(_ real: Double) -> PredicateArgument { .value(.real(real)) }

    /// An array value, for `IN %@` and `BETWEEN %@`.
    public static func array(_ values: [PredicateValue]) -> PredicateArgument {
        .value(.array(values))
    }

    /// A key path for `%K`, such as `"diaryEntry.creationTime"`.
    @_disfavoredOverload
    public static func keyPath(_ path: String) -> PredicateArgument {
        PredicateArgument.keyPath(path)
    }

    /// Any predicate value.
    @_disfavoredOverload
    public static func value(_ value: PredicateValue) -> PredicateArgument {
        PredicateArgument.value(value)
    }
}

extension FetchPredicate {
    /// Parses a predicate with plain Swift values for its format specifiers.
    ///
    /// ```swift
    /// let search = try FetchPredicate("body CONTAINS[cd] %@ AND wordCount > %d", "paris", 3)
    /// ```
    ///
    /// - Throws: ``PredicateSyntaxError`` as ``init(_:arguments:variables:)``.
    public init(
        _ format: String, _ first: any PredicateArgumentConvertible,
        _ rest: any PredicateArgumentConvertible...
    ) throws {
        // At least one argument: without any, `FetchPredicate("…")` would match
        // this and ``init(_:arguments:variables:)`` alike.
        try self.init(format, arguments: ([first] + rest).map(\.predicateArgument))
    }
}
