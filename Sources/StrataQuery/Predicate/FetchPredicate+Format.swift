import Foundation

// MARK: - Format

extension FetchPredicate: CustomStringConvertible {
    /// The predicate in the format language, parseable again to an equal tree
    /// (columns aside). Values are written as literals; objects and bytes,
    /// which have no literal, are written as `%@`.
    public var description: String { format(redacted: false) }

    /// The predicate with every value written as `%@`: what error messages
    /// quote, since they never show bound values.
    public var redactedDescription: String { format(redacted: true) }

    func format(redacted: Bool) -> String {
        switch self {
        case .constant(let value): return value ? "TRUEPREDICATE" : "FALSEPREDICATE"
        case .not(let inner): return "NOT " + inner.grouped(redacted)
        case .and(let terms): return terms.map { $0.grouped(redacted) }.joined(separator: " AND ")
        case .or(let terms): return terms.map { $0.grouped(redacted) }.joined(separator: " OR ")
        case .comparison(let comparison): return comparison.format(redacted: redacted)
        }
    }

    /// The predicate, parenthesised when it is a compound.
    private func grouped(_ redacted: Bool) -> String {
        switch self {
        case .and, .or: "(\(format(redacted: redacted)))"
        default: format(redacted: redacted)
        }
    }
}

extension Comparison: CustomStringConvertible {
    /// The comparison in the format language, such as `ANY media.type ==[c] "image"`.
    public var description: String { format(redacted: false) }

    func format(redacted: Bool) -> String {
        var options = ""
        if self.options.contains(.caseInsensitive) { options += "c" }
        if self.options.contains(.diacriticInsensitive) { options += "d" }
        let quantifier = quantifier == .direct ? "" : quantifier.rawValue + " "
        let op = op.rawValue + (options.isEmpty ? "" : "[\(options)]")
        return "\(quantifier)\(left.format(redacted: redacted)) \(op) "
            + right.format(redacted: redacted)
    }
}

extension ExpressionNode: CustomStringConvertible {
    /// The expression in the format language.
    public var description: String { format(redacted: false) }

    func format(redacted: Bool) -> String {
        switch self {
        case .keyPath(let path, _): path.map(ExpressionNode.escaped).joined(separator: ".")
        case .count(let path, _):
            (path.map(ExpressionNode.escaped) + ["@count"]).joined(separator: ".")
        case .value(let value, _): redacted ? "%@" : value.description
        case .list(let items):
            "{" + items.map { $0.format(redacted: redacted) }.joined(separator: ", ") + "}"
        case .variable(let name, _): "$" + name
        case .unary(let op, let operand, _): op.rawValue + operand.formatOperand(redacted)
        case .binary(let op, let left, let right, _):
            left.formatOperand(redacted) + " " + op.symbol + " "
                + right.formatOperand(redacted)
        case .function(let name, let arguments, _):
            name + "(" + arguments.map { $0.format(redacted: redacted) }.joined(separator: ", ")
                + ")"
        }
    }

    /// The expression as an operand: an operator's expression in
    /// parentheses, so the text reads back as the same tree.
    private func formatOperand(_ redacted: Bool) -> String {
        switch self {
        case .unary, .binary: "(" + format(redacted: redacted) + ")"
        default: format(redacted: redacted)
        }
    }

    /// A key name, with `#` when it would read as a keyword.
    private static func escaped(_ name: String) -> String {
        PredicateParser.reserved.contains(name.uppercased()) ? "#" + name : name
    }
}

extension PredicateValue: CustomStringConvertible {
    /// The value as a literal of the format language; `%@` for values that
    /// have none (dates, bytes, UUIDs, objects).
    public var description: String {
        switch self {
        case .null: "nil"
        case .boolean(let value): value ? "YES" : "NO"
        case .integer(let value): String(value)
        case .real(let value): String(value)
        case .string(let value):
            "\""
                + value.replacingOccurrences(of: "\\", with: "\\\\")
                .replacingOccurrences(of: "\"", with: "\\\"") + "\""
        case .array(let items): "{" + items.map(\.description).joined(separator: ", ") + "}"
        case .date, .data, .uuid, .object: "%@"
        }
    }
}
