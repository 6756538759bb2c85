/// Parses a mapping expression into a ``ExpressionNode`` (the tree
/// predicates share), over ``Lexer``'s tokens (its mapping dialect).
///
/// Precedence, loosest first: `??` (right to left), `||`, `&&`, the
/// comparisons `== != < <= > >=` (not chained), `+ -`, `* /`, prefix
/// `- !`, then literals, key paths, calls and parentheses.
package struct ExpressionParser {
    private let tokens: [Token]
    private var index = 0
    /// The deepest nesting accepted; deeper text is refused rather than
    /// risking the stack.
    static let maximumDepth = 64
    private var depth = 0

    private init(_ tokens: [Token]) {
        self.tokens = tokens
    }

    /// The tree of `text`.
    ///
    /// - Throws: ``ExpressionError`` at the first token that does not fit.
    package static func parse(_ text: String) throws(ExpressionError) -> ExpressionNode {
        let tokens: [Token]
        do {
            tokens = try Lexer.tokens(of: text, dialect: .mapping)
        } catch {
            throw ExpressionError(column: error.column, message: error.message)
        }
        var parser = ExpressionParser(tokens)
        guard parser.current.kind != .end else {
            throw ExpressionError(column: 1, message: "empty expression; expected a value")
        }
        let node = try parser.coalescing()
        guard parser.current.kind == .end else {
            throw ExpressionError(
                column: parser.current.column,
                message: "expected an operator or the end, found \(parser.current.summary)")
        }
        return node
    }

    private var current: Token { tokens[min(index, tokens.count - 1)] }

    private func isSymbol(_ symbol: String) -> Bool { current.kind == .symbol(symbol) }

    private func isPunctuation(_ character: Character) -> Bool {
        current.kind == .punctuation(character)
    }

    private mutating func expect(_ punctuation: Character, _ context: String)
        throws(ExpressionError)
    {
        guard isPunctuation(punctuation) else {
            throw ExpressionError(
                column: current.column,
                message: "expected '\(punctuation)' \(context), found \(current.summary)")
        }
        index += 1
    }

    /// Whether `name` can be written as it is in a key path, without
    /// backquotes: a letter or `_`, then letters, `_` and ASCII digits, and
    /// not one of the words `true`, `false`, `nil` and `null`.
    static func isPlainName(_ name: some StringProtocol) -> Bool {
        Lexer.isName(name, in: .mapping) && !["true", "false", "nil", "null"].contains(name)
    }

    private mutating func coalescing() throws(ExpressionError) -> ExpressionNode {
        depth += 1
        defer { depth -= 1 }
        guard depth <= Self.maximumDepth else {
            throw ExpressionError(
                column: current.column,
                message: "expression nested deeper than \(Self.maximumDepth) levels")
        }
        let left = try binary(level: 0)
        guard isSymbol("??") else { return left }
        let column = current.column
        index += 1
        return .binary(.coalesce, left, try coalescing(), column: column)
    }

    private static let levels: [[BinaryOperator]] = [
        [.or], [.and],
        [.equal, .notEqual, .less, .lessOrEqual, .greater, .greaterOrEqual].map { .compare($0) },
        [.add, .subtract], [.multiply, .divide],
    ]

    /// The operator of `level` the current token writes, if any.
    private func binaryOperator(of level: Int) -> BinaryOperator? {
        guard case .symbol(let symbol) = current.kind,
            let op = BinaryOperator(symbol: symbol), Self.levels[level].contains(op)
        else { return nil }
        return op
    }

    private mutating func binary(level: Int) throws(ExpressionError) -> ExpressionNode {
        guard level < Self.levels.count else { return try prefix() }
        var left = try binary(level: level + 1)
        // A chain (`1 + 1 + …`) loops rather than recurses here, but builds a
        // tree one level deeper per operator, which the checker and the
        // evaluator walk recursively: its height is bounded too.
        var height: Int?
        while let op = binaryOperator(of: level) {
            let column = current.column
            index += 1
            let right = try binary(level: level + 1)
            let joined = max(height ?? left.height, right.height) + 1
            guard joined <= Self.maximumDepth else {
                throw ExpressionError(
                    column: column,
                    message: "expression nested deeper than \(Self.maximumDepth) levels "
                        + "(a chain of operators counts one level each)")
            }
            height = joined
            left = .binary(op, left, right, column: column)
            // Comparisons do not chain: `a < b < c` is a mistake, not a value.
            if level == 2, binaryOperator(of: level) != nil {
                throw ExpressionError(
                    column: current.column,
                    message: "comparisons do not chain; combine them with && or ||")
            }
        }
        return left
    }

    private mutating func prefix() throws(ExpressionError) -> ExpressionNode {
        if isSymbol("-") || isSymbol("!") {
            guard case .symbol(let symbol) = current.kind, let op = UnaryOperator(rawValue: symbol)
            else { return try primary() }
            let column = current.column
            index += 1
            depth += 1
            defer { depth -= 1 }
            guard depth <= Self.maximumDepth else {
                throw ExpressionError(
                    column: column,
                    message: "expression nested deeper than \(Self.maximumDepth) levels")
            }
            let operand = try prefix()
            // A negative literal is a literal, so `-3` can be a constant argument.
            if op == .negate, case .value(let value, _) = operand {
                switch value {
                case .integer(let number) where number != .min:
                    return .value(.integer(-number), column: column)
                case .real(let number): return .value(.real(-number), column: column)
                default: break
                }
            }
            return .unary(op, operand, column: column)
        }
        return try primary()
    }

    private mutating func primary() throws(ExpressionError) -> ExpressionNode {
        let token = current
        switch token.kind {
        case .integer(let value):
            index += 1
            return .value(.integer(value), column: token.column)
        case .real(let value):
            index += 1
            return .value(.real(value), column: token.column)
        case .string(let text):
            index += 1
            return .value(.string(text), column: token.column)
        case .punctuation("("):
            index += 1
            let inner = try coalescing()
            try expect(")", "to close the '(' at column \(token.column)")
            return inner
        case .name(let name, escaped: false):
            index += 1
            switch name {
            case "true": return .value(.boolean(true), column: token.column)
            case "false": return .value(.boolean(false), column: token.column)
            case "nil", "null": return .value(.null, column: token.column)
            default: break
            }
            if isPunctuation("(") { return try call(name, column: token.column) }
            return try keyPath(from: name, column: token.column)
        case .name(let name, escaped: true):
            index += 1
            return try keyPath(from: name, column: token.column)
        default:
            throw ExpressionError(
                column: token.column,
                message: "expected a value, a key path or a function call, found "
                    + token.summary)
        }
    }

    /// A key path whose first part, `first`, was read: its `.name` parts.
    private mutating func keyPath(from first: String, column: Int) throws(ExpressionError)
        -> ExpressionNode
    {
        var path = [first]
        while isPunctuation(".") {
            index += 1
            switch current.kind {
            case .name(let next, _): path.append(next)
            default:
                throw ExpressionError(
                    column: current.column,
                    message: "expected a property name after '.', found \(current.summary)")
            }
            index += 1
        }
        return .keyPath(path, column: column)
    }

    private mutating func call(_ name: String, column: Int) throws(ExpressionError)
        -> ExpressionNode
    {
        index += 1  // (
        var arguments: [ExpressionNode] = []
        if isPunctuation(")") {
            index += 1
            return .function(name, arguments, column: column)
        }
        while true {
            arguments.append(try coalescing())
            if isPunctuation(",") {
                index += 1
                continue
            }
            try expect(")", "or ',' after an argument of \(name)(…)")
            return .function(name, arguments, column: column)
        }
    }
}

extension Token {
    /// How the token reads in a mapping expression's message: `'+'`, `name
    /// 'title'`, `end of expression`.
    var summary: String {
        switch kind {
        case .name(let name, escaped: false): "name '\(name)'"
        case .name(let name, escaped: true): "name `\(name)`"
        case .integer(let value): "number \(value)"
        case .real(let value): "number \(value)"
        case .string: "a string"
        case .symbol(let symbol): "'\(symbol)'"
        case .punctuation(let character): "'\(character)'"
        // Predicate tokens, which the mapping dialect never makes.
        case .specifier(let specifier): "'%\(specifier)'"
        case .variable(let name): "'$\(name)'"
        case .aggregate(let name): "'@\(name)'"
        case .end: "end of expression"
        }
    }
}
