/// One token of a predicate format string or a mapping expression, with the
/// 1-based column (in characters) where it starts.
///
/// Both languages read the same kinds; ``Lexer/Dialect`` decides which of
/// them a text may hold.
struct Token: Hashable, Sendable {
    /// The kinds of token.
    enum Kind: Hashable, Sendable {
        /// A name: a key path's part, a keyword (`AND`, `CONTAINS`, …), a
        /// function, or `nil`/`true`/`false`. `escaped` is true for a name
        /// that is never a keyword or a function: `#name` in a predicate,
        /// `` `Culmen Length (mm)` `` in a mapping expression.
        case name(String, escaped: Bool)
        /// A number written without fraction or exponent.
        case integer(Int64)
        /// Any other number.
        case real(Double)
        /// A quoted string, escapes resolved.
        case string(String)
        /// An operator: `== != < <= > >= && || !` in both languages; `= <> =< =>`
        /// in predicates; `?? + - * /` in mapping expressions.
        case symbol(String)
        /// `(`, `)`, `,` and `.` in both languages; `{`, `}`, `[`, `]` in
        /// predicates.
        case punctuation(Character)
        /// A predicate's format specifier such as `%@`, `%K` or `%ld` (without
        /// the `%`).
        case specifier(String)
        /// A predicate's `$NAME`.
        case variable(String)
        /// A predicate's `@count` and other `@` names.
        case aggregate(String)
        /// The end of the text.
        case end
    }

    let kind: Kind
    /// The 1-based column (in characters) of the token's first character.
    let column: Int
}

/// A text that does not split into tokens: where, and why. Each parser
/// turns it into its own public error (``PredicateSyntaxError``,
/// ``ExpressionError``).
struct LexerError: Error, Hashable, Sendable {
    /// The 1-based column, in characters.
    let column: Int
    /// What was found and what was expected.
    let message: String
}
