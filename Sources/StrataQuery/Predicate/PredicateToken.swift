/// One token of a predicate format string, with the 1-based column where it
/// starts.
struct PredicateToken: Equatable {
    /// The kinds of token.
    enum Kind: Equatable {
        /// A name: a key, a keyword (`AND`, `ANY`, `CONTAINS`, …) or `nil`.
        /// `escaped` is true for `#name`, which is never a keyword.
        case name(String, escaped: Bool)
        /// An integer literal.
        case integer(Int64)
        /// A real literal.
        case real(Double)
        /// A quoted string, escapes resolved.
        case string(String)
        /// `=`, `==`, `!=`, `<>`, `<`, `<=`, `=<`, `>`, `>=`, `=>`, `&&`, `||`, `!`.
        case symbol(String)
        /// `(`, `)`, `{`, `}`, `[`, `]`, `,`, `.`.
        case punctuation(Character)
        /// A format specifier such as `%@`, `%K` or `%ld` (without the `%`).
        case specifier(String)
        /// `$NAME`.
        case variable(String)
        /// `@count` and other `@` names.
        case aggregate(String)
        /// The end of the text.
        case end
    }

    let kind: Kind
    let column: Int

    /// The token as the user wrote it, for messages.
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

    /// The token quoted for a message: `'age'`, or plain for the end.
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
