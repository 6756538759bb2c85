/// Reads a predicate format string into a ``FetchPredicate``: a recursive-descent
/// parser over ``Lexer``'s tokens (its predicate dialect), substituting
/// arguments as it meets their specifiers.
///
/// Grammar, lowest precedence first (keywords are case-insensitive):
///
/// ```
/// or         := and (("OR" | "||") and)*
/// and        := not (("AND" | "&&") not)*
/// not        := ("NOT" | "!") not | "(" or ")" | TRUEPREDICATE | FALSEPREDICATE
///             | comparison
/// comparison := [ANY | SOME | ALL | NONE] operand operator [options] operand
/// ```
///
/// Each `NOT`, `!`, `(` and `{` opens one level of nesting; more than
/// ``maximumDepth`` levels are refused with a syntax error at the token that
/// goes too deep, rather than risking the stack (the parser, and everything
/// that walks the tree after it, recurses once per level).
struct PredicateParser {
    /// The deepest nesting accepted. Real predicates nest a handful of
    /// levels; a hundred leaves room for generated ones.
    static let maximumDepth = PredicateLimits.maximumDepth
    let text: String
    let tokens: [Token]
    var index = 0
    let arguments: [PredicateArgument]
    var nextArgument = 0
    let variables: [String: PredicateValue]
    /// The levels of nesting open at the current token.
    var depth = 0

    init(_ text: String, arguments: [PredicateArgument], variables: [String: PredicateValue])
        throws
    {
        self.text = text
        self.tokens = try Self.tokens(of: text)
        self.arguments = arguments
        self.variables = variables
    }

    /// The whole predicate; every argument must be used.
    package mutating func parse() throws -> FetchPredicate {
        let predicate = try parseOr()
        guard case .end = current.kind else {
            throw error(
                current.column,
                "expected AND, OR or the end of the predicate, found \(current.quoted)")
        }
        if nextArgument < arguments.count {
            throw error(
                text.count + 1,
                "too many arguments: the format uses \(nextArgument), "
                    + "\(arguments.count) were given")
        }
        return predicate
    }

    // MARK: - Tokens

    /// The tokens of a predicate; a text that does not split into tokens is
    /// a ``PredicateSyntaxError``.
    static func tokens(of text: String) throws(PredicateSyntaxError) -> [Token] {
        do {
            return try Lexer.tokens(of: text, dialect: .predicate)
        } catch {
            throw PredicateSyntaxError(
                predicate: text, column: error.column, message: error.message)
        }
    }

    var current: Token { tokens[min(index, tokens.count - 1)] }

    package mutating func advance() { index = min(index + 1, tokens.count - 1) }

    package func error(_ column: Int, _ message: String) -> PredicateSyntaxError {
        PredicateSyntaxError(predicate: text, column: column, message: message)
    }

    /// Consumes the current token when it is the keyword `word`.
    mutating func accept(keyword words: String...) -> Bool {
        guard let keyword = current.keyword, words.contains(keyword) else { return false }
        advance()
        return true
    }

    /// Consumes the current token when it is `symbol`.
    mutating func accept(symbol: String) -> Bool {
        guard case .symbol(symbol) = current.kind else { return false }
        advance()
        return true
    }

    /// Consumes the current token when it is `character`.
    mutating func accept(_ character: Character) -> Bool {
        guard case .punctuation(character) = current.kind else { return false }
        advance()
        return true
    }

    /// Runs `body` one level of nesting deeper; `token` opened the level.
    package mutating func nested<T>(
        at token: Token, _ body: (inout PredicateParser) throws -> T
    ) throws -> T {
        guard depth < Self.maximumDepth else {
            throw error(
                token.column,
                "the predicate nests deeper than \(Self.maximumDepth) levels at "
                    + "\(token.quoted); expected at most \(Self.maximumDepth) levels of "
                    + "NOT, '(' and '{'")
        }
        depth += 1
        defer { depth -= 1 }
        return try body(&self)
    }

    // MARK: - Logic

    mutating func parseOr() throws -> FetchPredicate {
        var terms = [try parseAnd()]
        while accept(keyword: "OR") || accept(symbol: "||") { terms.append(try parseAnd()) }
        return terms.count == 1 ? terms[0] : .or(terms)
    }

    mutating func parseAnd() throws -> FetchPredicate {
        var terms = [try parseNot()]
        while accept(keyword: "AND") || accept(symbol: "&&") { terms.append(try parseNot()) }
        return terms.count == 1 ? terms[0] : .and(terms)
    }

    mutating func parseNot() throws -> FetchPredicate {
        let token = current
        if accept(keyword: "NOT") || accept(symbol: "!") {
            return .not(try nested(at: token) { try $0.parseNot() })
        }
        if case .punctuation("(") = token.kind {
            advance()
            let inner = try nested(at: token) { try $0.parseOr() }
            guard accept(")") else {
                throw error(
                    current.column,
                    "expected ')' to close the '(' at column \(token.column), "
                        + "found \(current.quoted)")
            }
            return inner
        }
        if accept(keyword: "TRUEPREDICATE") { return .constant(true) }
        if accept(keyword: "FALSEPREDICATE") { return .constant(false) }
        return .comparison(try parseComparison())
    }
}

// MARK: - Tokens in messages

extension Token {
    /// The token as a predicate writes it, for messages.
    var spelling: String {
        switch kind {
        case .name(let name, let escaped): escaped ? "#" + name : name
        case .integer(let value): String(value)
        case .real(let value): String(value)
        case .string: "a quoted string"
        case .symbol(let symbol): symbol
        case .punctuation(let character): String(character)
        case .specifier(let specifier): "%" + specifier
        case .variable(let name): "$" + name
        case .aggregate(let name): "@" + name
        case .end: "the end of the predicate"
        }
    }

    /// The token quoted for a predicate's message: `'age'`, or plain for the
    /// end and strings.
    var quoted: String {
        switch kind {
        case .end, .string: spelling
        default: "'\(spelling)'"
        }
    }

    /// The upper-cased name when the token is an unescaped name.
    var keyword: String? {
        if case .name(let name, escaped: false) = kind { return name.uppercased() }
        return nil
    }
}
