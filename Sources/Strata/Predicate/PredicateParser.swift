/// Reads a predicate format string into a ``Predicate``: a recursive-descent
/// parser over ``PredicateLexer``'s tokens, substituting arguments as it
/// meets their specifiers.
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
struct PredicateParser {
    let text: String
    let tokens: [PredicateToken]
    var index = 0
    let arguments: [PredicateArgument]
    var nextArgument = 0
    let variables: [String: PredicateValue]

    init(_ text: String, arguments: [PredicateArgument], variables: [String: PredicateValue])
        throws
    {
        self.text = text
        self.tokens = try PredicateLexer.tokens(of: text)
        self.arguments = arguments
        self.variables = variables
    }

    /// The whole predicate; every argument must be used.
    mutating func parse() throws -> Predicate {
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

    var current: PredicateToken { tokens[min(index, tokens.count - 1)] }

    mutating func advance() { index = min(index + 1, tokens.count - 1) }

    func error(_ column: Int, _ message: String) -> PredicateSyntaxError {
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

    // MARK: - Logic

    mutating func parseOr() throws -> Predicate {
        var terms = [try parseAnd()]
        while accept(keyword: "OR") || accept(symbol: "||") { terms.append(try parseAnd()) }
        return terms.count == 1 ? terms[0] : .or(terms)
    }

    mutating func parseAnd() throws -> Predicate {
        var terms = [try parseNot()]
        while accept(keyword: "AND") || accept(symbol: "&&") { terms.append(try parseNot()) }
        return terms.count == 1 ? terms[0] : .and(terms)
    }

    mutating func parseNot() throws -> Predicate {
        if accept(keyword: "NOT") || accept(symbol: "!") { return .not(try parseNot()) }
        if case .punctuation("(") = current.kind {
            let open = current.column
            advance()
            let inner = try parseOr()
            guard accept(")") else {
                throw error(
                    current.column,
                    "expected ')' to close the '(' at column \(open), found \(current.quoted)")
            }
            return inner
        }
        if accept(keyword: "TRUEPREDICATE") { return .constant(true) }
        if accept(keyword: "FALSEPREDICATE") { return .constant(false) }
        return .comparison(try parseComparison())
    }
}
