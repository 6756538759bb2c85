// MARK: - Numbers of a predicate

extension FetchPredicate {
    /// The predicate with each number in it (an integer, real or date value,
    /// also inside a list or an array) replaced by what `body` returns for
    /// it, visited in a fixed order: the order of the text, left side before
    /// right side.
    ///
    /// A fetch plan cache keys plans by the predicate with its numbers
    /// zeroed: the SQL of a comparison does not depend on which number it
    /// binds (``PredicateSQLCompiler/sqlValue(ofNumber:)``).
    package func replacingNumbers(_ body: (PredicateValue) -> PredicateValue) -> FetchPredicate {
        switch self {
        case .constant:
            return self
        case .not(let inner):
            return .not(inner.replacingNumbers(body))
        case .and(let terms):
            return .and(terms.map { $0.replacingNumbers(body) })
        case .or(let terms):
            return .or(terms.map { $0.replacingNumbers(body) })
        case .comparison(var comparison):
            comparison.left = comparison.left.replacingNumbers(body)
            comparison.right = comparison.right.replacingNumbers(body)
            return .comparison(comparison)
        }
    }
}

extension ExpressionNode {
    /// The expression with its numbers replaced (``FetchPredicate/replacingNumbers(_:)``).
    func replacingNumbers(_ body: (PredicateValue) -> PredicateValue) -> ExpressionNode {
        switch self {
        case .value(let value, let column): .value(value.replacingNumbers(body), column: column)
        case .list(let items): .list(items.map { $0.replacingNumbers(body) })
        case .keyPath, .count, .variable: self
        case .unary(let op, let operand, let column):
            .unary(op, operand.replacingNumbers(body), column: column)
        case .binary(let op, let left, let right, let column):
            .binary(op, left.replacingNumbers(body), right.replacingNumbers(body), column: column)
        case .function(let name, let arguments, let column):
            .function(name, arguments.map { $0.replacingNumbers(body) }, column: column)
        }
    }
}

extension PredicateValue {
    /// Whether the value is a number: an integer, a real or a date.
    var isNumber: Bool {
        switch self {
        case .integer, .real, .date: true
        default: false
        }
    }

    /// The value with its numbers replaced (``FetchPredicate/replacingNumbers(_:)``).
    func replacingNumbers(_ body: (PredicateValue) -> PredicateValue) -> PredicateValue {
        switch self {
        case .integer, .real, .date: body(self)
        case .array(let items): .array(items.map { $0.replacingNumbers(body) })
        default: self
        }
    }
}
