import Foundation
import StrataStore

/// A condition on objects, in Core Data's `NSPredicate` format language.
///
/// ```swift
/// let search = try FetchPredicate("body CONTAINS[cd] %@", "all")
/// ```
///
/// The tree is independent of any entity; compiling it to SQL or evaluating
/// it in memory resolves its key paths against a model, and a key that does
/// not exist is reported with its column in the original text.
public indirect enum FetchPredicate: Hashable, Sendable {
    /// `TRUEPREDICATE` or `FALSEPREDICATE`.
    case constant(Bool)
    /// `NOT p`.
    case not(FetchPredicate)
    /// `p AND q AND …`.
    case and([FetchPredicate])
    /// `p OR q OR …`.
    case or([FetchPredicate])
    /// A comparison such as `age > 3` or `ANY media.type = 'image'`.
    case comparison(Comparison)
}

/// One comparison of a predicate.
public struct Comparison: Hashable, Sendable {
    /// The left side, usually a key path.
    public var left: ExpressionNode
    /// The operator.
    public var op: ComparisonOperator
    /// The right side, usually a value.
    public var right: ExpressionNode
    /// `ANY`/`SOME`, `ALL` or `NONE` before a to-many key path; `.direct`
    /// otherwise.
    public var quantifier: Quantifier
    /// The `[c]`, `[d]`, `[cd]` options of a string comparison.
    public var options: StringOptions
    /// Where the comparison starts in the predicate text (1-based column).
    public var column: Int

    /// Creates a comparison.
    public init(
        left: ExpressionNode, op: ComparisonOperator, right: ExpressionNode,
        quantifier: Quantifier = .direct, options: StringOptions = [], column: Int = 1
    ) {
        self.left = left
        self.op = op
        self.right = right
        self.quantifier = quantifier
        self.options = options
        self.column = column
    }
}

/// The operators of a comparison.
public enum ComparisonOperator: String, Hashable, Sendable {
    /// `=`, `==`
    case equal = "=="
    /// `!=`, `<>`
    case notEqual = "!="
    /// `<`
    case less = "<"
    /// `<=`, `=<`
    case lessOrEqual = "<="
    /// `>`
    case greater = ">"
    /// `>=`, `=>`
    case greaterOrEqual = ">="
    /// `BETWEEN {low, high}` (inclusive)
    case between = "BETWEEN"
    /// `IN {…}` or `IN %@`
    case `in` = "IN"
    /// `CONTAINS` (strings: substring; collections: membership)
    case contains = "CONTAINS"
    /// `BEGINSWITH`
    case beginsWith = "BEGINSWITH"
    /// `ENDSWITH`
    case endsWith = "ENDSWITH"
    /// `LIKE` with `*` and `?` wildcards
    case like = "LIKE"
    /// `MATCHES`: a regular expression over the whole string
    case matches = "MATCHES"
}

/// How a comparison applies to a to-many key path.
public enum Quantifier: String, Hashable, Sendable {
    /// A plain comparison (no to-many key path, or `@count`).
    case direct
    /// `ANY` / `SOME`: true when some destination matches.
    case any = "ANY"
    /// `ALL`: true when every destination matches (and for none).
    case all = "ALL"
    /// `NONE`: true when no destination matches.
    case none = "NONE"
}

/// The `[c]` and `[d]` options of string comparisons.
public struct StringOptions: OptionSet, Hashable, Sendable {
    /// The raw bits.
    public let rawValue: Int
    /// Creates options from raw bits.
    public init(rawValue: Int) { self.rawValue = rawValue }
    /// `[c]`: case-insensitive.
    public static let caseInsensitive = StringOptions(rawValue: 1)
    /// `[d]`: diacritic-insensitive.
    public static let diacriticInsensitive = StringOptions(rawValue: 2)
}

/// A value in a predicate: a literal of the text or a substituted argument.
public indirect enum PredicateValue: Hashable, Sendable {
    /// `nil` / `NULL`.
    case null
    /// `YES`, `NO`, `TRUE`, `FALSE`.
    case boolean(Bool)
    /// An integer.
    case integer(Int64)
    /// A real number.
    case real(Double)
    /// A string.
    case string(String)
    /// A date, as seconds since 2001-01-01T00:00:00Z.
    case date(Double)
    /// Bytes.
    case data(Data)
    /// A UUID.
    case uuid(UUID)
    /// A reference to an object (`%@` with a managed object or its id).
    case object(ObjectID)
    /// A collection (`IN %@` with an array).
    case array([PredicateValue])
}
