import StrataCore

extension FetchPredicate {
    /// Every string value in the predicate, in visiting order, compared by
    /// its bytes (``ExactText``): Swift's `==` holds `"café"` (é as one
    /// scalar) equal to `"cafe\u{301}"`, SQLite and the evaluator do not, so
    /// whatever keys work by predicate (the context's fetch plans) adds
    /// these to tell such predicates apart.
    package var exactStrings: [ExactText] {
        var strings: [ExactText] = []
        forEachComparison { comparison in
            comparison.left.appendExactStrings(to: &strings)
            comparison.right.appendExactStrings(to: &strings)
            return true
        }
        return strings
    }
}

extension ExpressionNode {
    /// Appends every string value of the tree, in order.
    func appendExactStrings(to strings: inout [ExactText]) {
        var pending = [self]
        while let node = pending.popLast() {
            switch node {
            case .value(let value, _): value.appendExactStrings(to: &strings)
            case .keyPath, .count, .variable: break
            case .list(let items), .function(_, let items, _): pending += items.reversed()
            case .unary(_, let operand, _): pending.append(operand)
            case .binary(_, let left, let right, _): pending += [right, left]
            }
        }
    }
}

extension PredicateValue {
    /// Appends the value's strings (its items', for an array).
    func appendExactStrings(to strings: inout [ExactText]) {
        switch self {
        case .string(let text): strings.append(ExactText(text))
        case .array(let items): for item in items { item.appendExactStrings(to: &strings) }
        default: break
        }
    }
}
