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

extension PredicateExpression {
    /// The expression with its numbers replaced (``FetchPredicate/replacingNumbers(_:)``).
    func replacingNumbers(_ body: (PredicateValue) -> PredicateValue) -> PredicateExpression {
        switch self {
        case .value(let value): .value(value.replacingNumbers(body))
        case .list(let items): .list(items.map { $0.replacingNumbers(body) })
        case .keyPath, .count, .variable: self
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
