/// Splits a mapping expression into tokens.
///
/// Columns count characters from 1, as predicate columns do, so a caret
/// under a column lines up with what the user sees.
struct ExpressionLexer {
    private let characters: [Character]
    private var position = 0

    private init(_ text: String) {
        characters = Array(text)
    }

    /// Every token of `text`, ending with `.end`.
    ///
    /// - Throws: ``ExpressionError`` at the first character that starts no
    ///   token, or at an unterminated string.
    static func tokens(of text: String) throws(ExpressionError) -> [ExpressionToken] {
        var lexer = ExpressionLexer(text)
        var tokens: [ExpressionToken] = []
        while true {
            let token = try lexer.next()
            tokens.append(token)
            if token.kind == .end { return tokens }
        }
    }

    private static let symbols = ["??", "==", "!=", "<=", ">=", "&&", "||"]
    private static let singles: Set<Character> = [
        "(", ")", ",", ".", "+", "-", "*", "/", "<", ">", "!",
    ]

    private func peek(_ offset: Int = 0) -> Character? {
        position + offset < characters.count ? characters[position + offset] : nil
    }

    private mutating func next() throws(ExpressionError) -> ExpressionToken {
        while let character = peek(), character.isWhitespace { position += 1 }
        let column = position + 1
        guard let character = peek() else { return ExpressionToken(kind: .end, column: column) }
        if character == "\"" || character == "'" {
            return ExpressionToken(kind: .string(try string(quote: character)), column: column)
        }
        if character == "`" {
            return ExpressionToken(kind: .quotedName(try quotedName()), column: column)
        }
        if character.isNumber, character.isASCII {
            return ExpressionToken(kind: try number(), column: column)
        }
        if character == "_" || character.isLetter {
            var name = ""
            while let next = peek(), Self.isNameCharacter(next) {
                name.append(next)
                position += 1
            }
            return ExpressionToken(kind: .identifier(name), column: column)
        }
        if let second = peek(1), Self.symbols.contains(String([character, second])) {
            position += 2
            return ExpressionToken(kind: .symbol(String([character, second])), column: column)
        }
        if Self.singles.contains(character) {
            position += 1
            return ExpressionToken(kind: .symbol(String(character)), column: column)
        }
        if character == "=" {
            throw ExpressionError(column: column, message: "unexpected '='; compare with '=='")
        }
        throw ExpressionError(
            column: column,
            message: "unexpected character '\(character)'; expected a value, a key path, a "
                + "function call or an operator")
    }

    /// Whether `name` can be written as it is in a key path, without
    /// backquotes: a letter or `_`, then letters, `_` and ASCII digits, and
    /// not one of the words `true`, `false`, `nil` and `null`.
    static func isPlainName(_ name: some StringProtocol) -> Bool {
        guard let first = name.first, first == "_" || first.isLetter,
            !["true", "false", "nil", "null"].contains(name)
        else { return false }
        return name.allSatisfy(isNameCharacter)
    }

    private static func isNameCharacter(_ character: Character) -> Bool {
        character == "_" || character.isLetter || (character.isNumber && character.isASCII)
    }

    private mutating func string(quote: Character) throws(ExpressionError) -> String {
        let start = position + 1
        position += 1
        var text = ""
        while let character = peek() {
            position += 1
            if character == quote { return text }
            guard character == "\\" else {
                text.append(character)
                continue
            }
            guard let escaped = peek() else { break }
            position += 1
            switch escaped {
            case "n": text.append("\n")
            case "t": text.append("\t")
            case "r": text.append("\r")
            case "\\", "\"", "'": text.append(escaped)
            default:
                throw ExpressionError(
                    column: position - 1,
                    message: "unknown escape '\\\(escaped)'; expected \\n \\t \\r \\\\ \\\" or \\'")
            }
        }
        throw ExpressionError(
            column: start, message: "unterminated string: expected \(quote) before the end")
    }

    /// A name between backquotes, taken as written: no escapes, so it may
    /// hold anything but a backquote and a line break.
    private mutating func quotedName() throws(ExpressionError) -> String {
        let start = position + 1
        position += 1
        var name = ""
        while let character = peek(), character != "`", !character.isNewline {
            name.append(character)
            position += 1
        }
        guard peek() == "`" else {
            throw ExpressionError(
                column: start, message: "unterminated name: expected ` before the end")
        }
        position += 1
        guard !name.isEmpty else {
            throw ExpressionError(column: start, message: "empty name between backquotes")
        }
        return name
    }

    private mutating func number() throws(ExpressionError) -> ExpressionToken.Kind {
        let start = position
        func digits() {
            while let next = peek(), next.isASCII, next.isNumber { position += 1 }
        }
        digits()
        var isInteger = true
        if peek() == ".", let after = peek(1), after.isASCII, after.isNumber {
            isInteger = false
            position += 1
            digits()
        }
        if let e = peek(), e == "e" || e == "E" {
            let sign = peek(1) == "+" || peek(1) == "-" ? 1 : 0
            if let digit = peek(1 + sign), digit.isASCII, digit.isNumber {
                isInteger = false
                position += 1 + sign
                digits()
            }
        }
        let literal = String(characters[start..<position])
        if isInteger, let value = Int64(literal) { return .integer(value) }
        guard let value = Double(literal), value.isFinite else {
            throw ExpressionError(column: start + 1, message: "number \(literal) is out of range")
        }
        return .real(value)
    }
}
