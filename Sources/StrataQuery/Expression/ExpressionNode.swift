/// The syntax tree of a mapping expression. Every node keeps the column of
/// its first character (an operator's column for a binary node), so checks
/// and evaluation errors can point into the text.
package indirect enum ExpressionNode: Hashable, Sendable {
    /// A literal: a string, number, `true`, `false` or `nil`.
    case literal(MappingValue, column: Int)
    /// A key path over the source object (`text`, `notebook.title`).
    case keyPath([String], column: Int)
    /// `-x` or `!x`.
    case unary(String, ExpressionNode, column: Int)
    /// `a + b` and the other binary operators.
    case binary(String, ExpressionNode, ExpressionNode, column: Int)
    /// `name(arguments…)`.
    case call(String, [ExpressionNode], column: Int)

    /// Where the node starts in the text.
    var column: Int {
        switch self {
        case .literal(_, let column), .keyPath(_, let column), .unary(_, _, let column),
            .call(_, _, let column):
            column
        case .binary(_, let left, _, _): left.column
        }
    }

    /// The levels of the tree (1 for a leaf), counted without recursion.
    var height: Int {
        var tallest = 0
        var pending: [(ExpressionNode, Int)] = [(self, 1)]
        while let (node, level) = pending.popLast() {
            tallest = max(tallest, level)
            switch node {
            case .literal, .keyPath: break
            case .unary(_, let operand, _): pending.append((operand, level + 1))
            case .binary(_, let left, let right, _):
                pending += [(left, level + 1), (right, level + 1)]
            case .call(_, let arguments, _): pending += arguments.map { ($0, level + 1) }
            }
        }
        return tallest
    }

    /// Every key path the expression reads, in order of appearance.
    package var keyPaths: [[String]] {
        switch self {
        case .literal: []
        case .keyPath(let path, _): [path]
        case .unary(_, let operand, _): operand.keyPaths
        case .binary(_, let left, let right, _): left.keyPaths + right.keyPaths
        case .call(_, let arguments, _): arguments.flatMap(\.keyPaths)
        }
    }
}
