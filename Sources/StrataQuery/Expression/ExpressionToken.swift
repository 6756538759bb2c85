/// One token of a mapping expression, with the column it starts at.
struct ExpressionToken: Hashable, Sendable {
    /// What a token is.
    enum Kind: Hashable, Sendable {
        /// A name: part of a key path, a function, or `true`/`false`/`nil`.
        case identifier(String)
        /// A name written between backquotes (`` `Culmen Length (mm)` ``):
        /// a key path's part whatever its characters, never a function or
        /// `true`/`false`/`nil`.
        case quotedName(String)
        /// A number written without fraction or exponent.
        case integer(Int64)
        /// Any other number.
        case real(Double)
        /// A quoted string, escapes resolved.
        case string(String)
        /// An operator or punctuation: `( ) , . + - * / ?? == != < <= > >= && || !`.
        case symbol(String)
        /// The end of the text.
        case end
    }

    var kind: Kind
    /// The 1-based column (in characters) of the token's first character.
    var column: Int

    /// How the token reads in a message: `'+'`, `name 'title'`, `end of
    /// expression`.
    var summary: String {
        switch kind {
        case .identifier(let name): "name '\(name)'"
        case .quotedName(let name): "name `\(name)`"
        case .integer(let value): "number \(value)"
        case .real(let value): "number \(value)"
        case .string: "a string"
        case .symbol(let symbol): "'\(symbol)'"
        case .end: "end of expression"
        }
    }
}
