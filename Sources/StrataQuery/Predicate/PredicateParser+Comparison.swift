// MARK: - Comparisons and operands

extension PredicateParser {
    /// Keywords that cannot start a key path (write `#NAME` for a key with
    /// such a name).
    static let reserved: Set<String> = [
        "AND", "OR", "NOT", "ANY", "SOME", "ALL", "NONE", "IN", "BETWEEN", "CONTAINS",
        "BEGINSWITH", "ENDSWITH", "LIKE", "MATCHES", "TRUEPREDICATE", "FALSEPREDICATE",
        "NIL", "NULL", "YES", "NO", "TRUE", "FALSE",
    ]

    mutating func parseComparison() throws -> Comparison {
        let column = current.column
        var quantifier = Quantifier.direct
        switch current.keyword {
        case "ANY", "SOME": quantifier = .any
        case "ALL": quantifier = .all
        case "NONE": quantifier = .none
        default: break
        }
        if quantifier != .direct { advance() }
        let left = try parseOperand(role: "a key path or value")
        let opToken = current
        guard let op = try parseOperator() else {
            throw error(
                opToken.column,
                "expected an operator (=, !=, <, <=, >, >=, BETWEEN, IN, CONTAINS, BEGINSWITH, "
                    + "ENDSWITH, LIKE or MATCHES), found \(opToken.quoted)")
        }
        let options = try parseOptions()
        let right: ExpressionNode
        if op == .between {
            right = try parseBetweenBounds()
        } else {
            right = try parseOperand(role: "a key path or value after \(opToken.quoted)")
        }
        return PredicateParser.normalized(
            Comparison(
                left: left, op: op, right: right, quantifier: quantifier, options: options,
                column: column))
    }

    /// The operator at the current token, consumed; nil when there is none.
    mutating func parseOperator() throws -> ComparisonOperator? {
        let op: ComparisonOperator?
        switch current.kind {
        case .symbol(let symbol):
            switch symbol {
            case "=", "==": op = .equal
            case "!=", "<>": op = .notEqual
            case "<": op = .less
            case "<=", "=<": op = .lessOrEqual
            case ">": op = .greater
            case ">=", "=>": op = .greaterOrEqual
            default: op = nil
            }
        case .name(_, escaped: false):
            switch current.keyword {
            case "BETWEEN": op = .between
            case "IN": op = .in
            case "CONTAINS": op = .contains
            case "BEGINSWITH": op = .beginsWith
            case "ENDSWITH": op = .endsWith
            case "LIKE": op = .like
            case "MATCHES": op = .matches
            default: op = nil
            }
        default: op = nil
        }
        if op != nil { advance() }
        return op
    }

    /// `[c]`, `[d]`, `[cd]` (or `[dc]`; `n` is accepted and ignored) after
    /// an operator.
    mutating func parseOptions() throws -> StringOptions {
        guard case .punctuation("[") = current.kind else { return [] }
        advance()
        let letters = current
        var options: StringOptions = []
        guard case .name(let flags, escaped: false) = letters.kind,
            flags.allSatisfy({ "cdnCDN".contains($0) })
        else {
            throw error(letters.column, "expected c, d or cd inside '[…]', found \(letters.quoted)")
        }
        if flags.lowercased().contains("c") { options.insert(.caseInsensitive) }
        if flags.lowercased().contains("d") { options.insert(.diacriticInsensitive) }
        advance()
        guard accept("]") else {
            throw error(current.column, "expected ']' after the options, found \(current.quoted)")
        }
        return options
    }

    /// `{low, high}`, `%@` with a two-element array, or a `$VARIABLE`.
    mutating func parseBetweenBounds() throws -> ExpressionNode {
        let start = current
        let bounds = try parseOperand(role: "'{low, high}' after BETWEEN")
        switch bounds {
        case .list(let items) where items.count == 2: return bounds
        case .value(.array(let items), _) where items.count == 2: return bounds
        case .variable: return bounds
        case .value(.array, _):
            throw error(start.column, "BETWEEN expects an array of exactly two values")
        default:
            throw error(start.column, "expected '{low, high}' after BETWEEN, with two values")
        }
    }

    /// A key path (`a.b`, `%K`, `a.@count`), a literal, a substituted value,
    /// a variable or a `{…}` list.
    mutating func parseOperand(role: String) throws -> ExpressionNode {
        let token = current
        switch token.kind {
        case .integer(let value):
            advance()
            return .value(.integer(value), column: token.column)
        case .real(let value):
            advance()
            return .value(.real(value), column: token.column)
        case .string(let value):
            advance()
            return .value(.string(value), column: token.column)
        case .variable(let name):
            advance()
            if let value = variables[name] { return .value(value, column: token.column) }
            return .variable(name, column: token.column)
        case .punctuation("{"):
            return try nested(at: token) { try $0.parseList() }
        case .specifier("K"):
            advance()
            return try parseKeyPath(start: try keyPathArgument(token), column: token.column)
        case .specifier(let specifier):
            advance()
            return .value(try valueArgument(specifier, token), column: token.column)
        case .name(let name, let escaped):
            if !escaped {
                switch name.uppercased() {
                case "NIL", "NULL":
                    advance()
                    return .value(.null, column: token.column)
                case "YES", "TRUE":
                    advance()
                    return .value(.boolean(true), column: token.column)
                case "NO", "FALSE":
                    advance()
                    return .value(.boolean(false), column: token.column)
                case let word where PredicateParser.reserved.contains(word):
                    throw error(
                        token.column,
                        "expected \(role), found the keyword \(token.quoted) "
                            + "(write #\(name) for a key of that name)")
                default: break
                }
            }
            advance()
            return try parseKeyPath(start: [name], column: token.column)
        default:
            throw error(token.column, "expected \(role), found \(token.quoted)")
        }
    }

    /// The rest of a key path after its first component(s): `.name`, `.%K`
    /// and a final `.@count`.
    mutating func parseKeyPath(start: [String], column: Int) throws -> ExpressionNode {
        var path = start
        while accept(".") {
            let token = current
            switch token.kind {
            case .name(let name, _):
                advance()
                path.append(name)
            case .specifier("K"):
                advance()
                path += try keyPathArgument(token)
            case .aggregate(let name) where name.lowercased() == "count":
                advance()
                return .count(path, column: column)
            case .aggregate:
                throw error(token.column, "expected @count; other aggregates are not supported")
            default:
                throw error(token.column, "expected a key name after '.', found \(token.quoted)")
            }
        }
        if path.last == "@count" { return .count(Array(path.dropLast()), column: column) }
        return .keyPath(path, column: column)
    }

    /// `{a, b, …}`, possibly empty.
    mutating func parseList() throws -> ExpressionNode {
        let open = current.column
        advance()
        var items: [ExpressionNode] = []
        if accept("}") { return .list(items) }
        repeat {
            items.append(try parseOperand(role: "a value in the list"))
        } while accept(",")
        guard accept("}") else {
            throw error(
                current.column,
                "expected ',' or '}' to close the '{' at column \(open), found \(current.quoted)")
        }
        return .list(items)
    }

    // MARK: - Normalising

    /// Puts the key path on the left where the operator allows it:
    /// `3 < age` becomes `age > 3`, `%@ IN tags` becomes `tags CONTAINS %@`
    /// and `{1, 2} CONTAINS age` becomes `age IN {1, 2}`.
    static func normalized(_ comparison: Comparison) -> Comparison {
        guard !comparison.left.isKeyPathLike, comparison.right.isKeyPathLike else {
            return comparison
        }
        let mirrored: ComparisonOperator?
        switch comparison.op {
        case .equal, .notEqual: mirrored = comparison.op
        case .less: mirrored = .greater
        case .lessOrEqual: mirrored = .greaterOrEqual
        case .greater: mirrored = .less
        case .greaterOrEqual: mirrored = .lessOrEqual
        case .in: mirrored = .contains
        case .contains: mirrored = comparison.left.isCollection ? .in : nil
        default: mirrored = nil
        }
        guard let op = mirrored else { return comparison }
        var result = comparison
        result.left = comparison.right
        result.right = comparison.left
        result.op = op
        return result
    }
}

extension ExpressionNode {
    /// Whether the expression reads the object: a key path or `@count`.
    var isKeyPathLike: Bool {
        switch self {
        case .keyPath, .count: true
        default: false
        }
    }

    /// Whether the expression is a list or an array value.
    var isCollection: Bool {
        switch self {
        case .list, .value(.array, _): true
        default: false
        }
    }
}
