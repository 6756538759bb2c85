import StrataSchema

/// The type of a mapping expression's value, known before anything runs.
package enum ExpressionType: String, Hashable, Sendable {
    /// The literal `nil`: fits every attribute.
    case null = "nil"
    /// Text (string and URI attributes).
    case string
    /// A whole number (integer16/32/64 attributes).
    case integer
    /// A number with a fraction (double, float and decimal attributes).
    case real = "number"
    /// true or false.
    case boolean
    /// A date (seconds since 2001-01-01 00:00 UTC).
    case date
    /// Bytes (binary and transformable attributes).
    case binary
    /// A UUID.
    case uuid
    /// A list of strings, from `split` or `matches`.
    case list = "list of strings"
    /// A value read from a keyed archive or JSON (`unarchive`,
    /// `jsonValue`): an array, a dictionary or a single value, known only
    /// when the row is read.
    case structured = "structured value"

    /// The type an attribute's values have in expressions.
    package init(_ type: AttributeType) {
        switch type {
        case .string, .uri: self = .string
        case .integer16, .integer32, .integer64: self = .integer
        case .decimal, .double, .float: self = .real
        case .boolean: self = .boolean
        case .date: self = .date
        case .binary, .transformable: self = .binary
        case .uuid: self = .uuid
        }
    }

    /// Whether values are numbers (`nil` counts, it fits anything).
    var isNumeric: Bool { self == .integer || self == .real || self == .null }

    /// The type of a value that is either `self` or `other` (`??`,
    /// `coalesce`, `if`), or nil when no type holds both.
    func unified(with other: ExpressionType) -> ExpressionType? {
        if self == other { return self }
        if self == .null { return other }
        if other == .null { return self }
        if isNumeric && other.isNumeric { return .real }
        return nil
    }

    /// Whether a value of this type can be stored in an attribute of
    /// `type`: the same kind, or an integer into a floating-point number.
    package func fits(_ type: AttributeType) -> Bool {
        let target = ExpressionType(type)
        // A structured value is checked when it is stored: a single value of
        // the attribute's kind fits, an array or a dictionary does not.
        return self == .null || self == .structured || self == target
            || (self == .integer && target == .real)
    }

    /// `a string`, `an integer`, … for messages.
    package var withArticle: String {
        switch self {
        case .null: "nil"
        case .integer: "an integer"
        case .uuid: "a UUID"
        case .list: "a list of strings"
        case .structured: "a structured value"
        default: "a \(rawValue)"
        }
    }
}
