extension FetchPredicate {
    /// The UTF-8 bytes of every string value in the predicate, in visiting
    /// order. Swift compares strings by canonical equivalence (`"café"` (é
    /// as one scalar) equals `"cafe\u{301}"`), SQLite and the evaluator
    /// compare them by their bytes, so whatever keys work by predicate (the
    /// context's fetch plans) adds these to tell such predicates apart.
    package var stringBytes: [[UInt8]] {
        var bytes: [[UInt8]] = []
        var pending = [self]
        while let predicate = pending.popLast() {
            switch predicate {
            case .constant: break
            case .not(let inner): pending.append(inner)
            case .and(let terms), .or(let terms): pending += terms.reversed()
            case .comparison(let comparison):
                comparison.left.appendStringBytes(to: &bytes)
                comparison.right.appendStringBytes(to: &bytes)
            }
        }
        return bytes
    }
}

extension ExpressionNode {
    /// Appends the bytes of every string value of the tree, in order.
    func appendStringBytes(to bytes: inout [[UInt8]]) {
        var pending = [self]
        while let node = pending.popLast() {
            switch node {
            case .value(let value, _): value.appendStringBytes(to: &bytes)
            case .keyPath, .count, .variable: break
            case .list(let items), .function(_, let items, _): pending += items.reversed()
            case .unary(_, let operand, _): pending.append(operand)
            case .binary(_, let left, let right, _): pending += [right, left]
            }
        }
    }
}

extension PredicateValue {
    /// Appends the bytes of the value's strings (its items', for an array).
    func appendStringBytes(to bytes: inout [[UInt8]]) {
        switch self {
        case .string(let text): bytes.append(Array(text.utf8))
        case .array(let items): for item in items { item.appendStringBytes(to: &bytes) }
        default: break
        }
    }
}
