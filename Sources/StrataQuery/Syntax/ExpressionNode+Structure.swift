// What every language reads off the shared expression tree: where a node
// starts, how tall it is, which key paths it reads.

extension ExpressionNode {
    /// Where the node starts in its text (a binary node: where its left
    /// operand starts; a list: its first item; 0 when not known).
    package var column: Int {
        switch self {
        case .keyPath(_, let column), .count(_, let column), .value(_, let column),
            .variable(_, let column), .unary(_, _, let column), .function(_, _, let column):
            column
        case .binary(_, let left, _, _): left.column
        case .list(let items): items.first?.column ?? 0
        }
    }

    /// The levels of the tree (1 for a leaf), counted without recursion.
    package var height: Int {
        var tallest = 0
        var pending: [(ExpressionNode, Int)] = [(self, 1)]
        while let (node, level) = pending.popLast() {
            tallest = max(tallest, level)
            switch node {
            case .keyPath, .count, .value, .variable: break
            case .unary(_, let operand, _): pending.append((operand, level + 1))
            case .binary(_, let left, let right, _):
                pending += [(left, level + 1), (right, level + 1)]
            case .function(_, let arguments, _), .list(let arguments):
                pending += arguments.map { ($0, level + 1) }
            }
        }
        return tallest
    }

    /// Every key path the expression reads (`@count` ones without the
    /// `@count`), in order of appearance.
    package var keyPaths: [[String]] {
        switch self {
        case .value, .variable: []
        case .keyPath(let path, _), .count(let path, _): [path]
        case .unary(_, let operand, _): operand.keyPaths
        case .binary(_, let left, let right, _): left.keyPaths + right.keyPaths
        case .function(_, let arguments, _), .list(let arguments): arguments.flatMap(\.keyPaths)
        }
    }
}
