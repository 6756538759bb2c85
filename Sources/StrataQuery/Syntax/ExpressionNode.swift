/// An expression in Core Data's `NSExpression` grammar: one side of a
/// predicate's comparison, and the whole of a mapping expression.
///
/// Predicates and mapping expressions share this one tree (as `NSPredicate`
/// and `NSExpression` share one grammar): a predicate's parser makes key
/// paths, `@count`, values, lists and variables; a mapping's parser makes
/// key paths, values, operators and function calls. Each checker refuses the
/// nodes its language does not evaluate, at the node's column.
///
/// ```swift
/// let predicate = try FetchPredicate("pages > 3")
/// if case .comparison(let comparison) = predicate {
///     print(comparison.left)  // pages
///     print(comparison.right == .value(.integer(3), column: 9))  // true
/// }
/// ```
public indirect enum ExpressionNode: Hashable, Sendable {
    /// A key path such as `diaryEntry.creationTime`, with its column in the
    /// text.
    case keyPath([String], column: Int)
    /// `keyPath.@count`: the number of destinations of a to-many key path.
    case count([String], column: Int)
    /// A literal or substituted value, with its column in the text (0 when
    /// the value was not written in a text).
    case value(PredicateValue, column: Int = 0)
    /// `{a, b, …}`: a list of expressions (for `IN` and `BETWEEN`).
    case list([ExpressionNode])
    /// `$NAME`: a variable not yet bound.
    case variable(String, column: Int)
    /// `-x` or `!x`.
    case unary(UnaryOperator, ExpressionNode, column: Int)
    /// `a + b`, `a == b`, `a ?? b` and the other binary operators; the
    /// column is the operator's.
    case binary(BinaryOperator, ExpressionNode, ExpressionNode, column: Int)
    /// `name(arguments…)`: a function call.
    case function(String, [ExpressionNode], column: Int)
}

/// The prefix operators of an expression.
public enum UnaryOperator: String, Hashable, Sendable {
    /// `-x`: the number's negation.
    case negate = "-"
    /// `!x`: the Boolean's negation.
    case not = "!"
}

/// The infix operators of an expression. Comparisons are the predicates'
/// own operators (``ComparisonOperator``); a mapping expression writes the
/// six of them that compare two values (`==` `!=` `<` `<=` `>` `>=`).
public enum BinaryOperator: Hashable, Sendable {
    /// `a == b`, `a < b` and the other comparisons.
    case compare(ComparisonOperator)
    /// `a ?? b`: `a` unless it is nil, else `b`.
    case coalesce
    /// `a || b`
    case or
    /// `a && b`
    case and
    /// `a + b`: a sum, a date moved by seconds, or two strings joined.
    case add
    /// `a - b`
    case subtract
    /// `a * b`
    case multiply
    /// `a / b`
    case divide

    /// The operators that are not comparisons, by their symbols.
    private static let others: [String: BinaryOperator] = [
        "??": .coalesce, "||": .or, "&&": .and, "+": .add, "-": .subtract, "*": .multiply,
        "/": .divide,
    ]

    /// The operator `symbol` writes (`==`, `<=`, `??`, `+`…), if any.
    public init?(symbol: String) {
        if let other = Self.others[symbol] {
            self = other
        } else if let comparison = ComparisonOperator(rawValue: symbol),
            [.equal, .notEqual, .less, .lessOrEqual, .greater, .greaterOrEqual].contains(comparison)
        {
            self = .compare(comparison)
        } else {
            return nil
        }
    }

    /// The symbol that writes the operator.
    public var symbol: String {
        switch self {
        case .compare(let comparison): comparison.rawValue
        case .coalesce: "??"
        case .or: "||"
        case .and: "&&"
        case .add: "+"
        case .subtract: "-"
        case .multiply: "*"
        case .divide: "/"
        }
    }
}

/// The former name of ``ExpressionNode``, which clashed with Foundation's
/// `PredicateExpression` protocol wherever both modules were imported.
@available(*, deprecated, renamed: "ExpressionNode")
public typealias PredicateExpression = ExpressionNode
