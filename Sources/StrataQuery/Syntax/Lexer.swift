/// Splits a predicate format string or a mapping expression into tokens.
///
/// Core Data writes both in one grammar (an `NSExpression` is written as in
/// an `NSPredicate`); ``Dialect`` keeps the few tokens where the two
/// languages differ.
///
/// Columns count characters (extended grapheme clusters) from 1, so a caret
/// placed under a column lines up with what the user sees.
///
/// The lexer reads one code unit per character: the character's ASCII value,
/// or ``nonASCII`` for any other character (CR LF included), whose class is
/// then asked of the `Character` itself. Texts are nearly always ASCII
/// without CR; such a text is read as its bytes, with no grapheme breaking
/// and no `Character` made unless a token holds one.
struct Lexer {
    /// The language a text is written in.
    enum Dialect: Hashable, Sendable {
        /// `NSPredicate` format strings: `#name`, format specifiers (`%@`),
        /// `$VARIABLE`, `@count`, `{ } [ ]`, signed (`-1`), fractional (`.5`)
        /// and hexadecimal (`0x1F`) numbers, and `=`, `<>`, `=<`, `=>`.
        case predicate
        /// Mapping expressions: names between backquotes, and `??`, `+`, `-`,
        /// `*`, `/` (a sign is an operator, not part of a number).
        case mapping

        /// Whether `character` can continue a name. A mapping expression
        /// takes only ASCII digits, the ones its numbers are written with.
        func isNamePart(_ character: Character) -> Bool {
            character == "_" || character.isLetter
                || (character.isNumber && (self == .predicate || character.isASCII))
        }
    }

    /// The unit of a character that is not a single ASCII scalar.
    private static let nonASCII: UInt8 = 0x80

    private let dialect: Dialect
    /// One unit per character (see above).
    private let units: [UInt8]
    /// The characters, when the text is not plain ASCII; empty otherwise
    /// (each unit is then its character).
    private let characters: [Character]
    private var position = 0

    private init(_ text: String, dialect: Dialect) {
        self.dialect = dialect
        let utf8 = text.utf8
        // CR is left out: CR LF is one character.
        if utf8.allSatisfy({ $0 < 0x80 && $0 != 0x0D }) {
            units = Array(utf8)
            characters = []
        } else {
            characters = Array(text)
            units = characters.map { character in
                character.unicodeScalars.count == 1
                    ? character.asciiValue ?? Self.nonASCII
                    : Self.nonASCII
            }
        }
    }

    /// Every token of `text`, ending with `.end`.
    ///
    /// - Throws: ``LexerError`` at the first character that starts no token
    ///   of `dialect`, or at a malformed number, string or name.
    static func tokens(of text: String, dialect: Dialect) throws(LexerError) -> [Token] {
        var lexer = Lexer(text, dialect: dialect)
        var tokens: [Token] = []
        while true {
            let token = try lexer.next()
            tokens.append(token)
            if token.kind == .end { return tokens }
        }
    }

    /// Whether `text` is one name as `dialect` writes it without escape
    /// (keywords aside): a letter or `_`, then letters, digits and `_`.
    static func isName(_ text: some StringProtocol, in dialect: Dialect) -> Bool {
        guard let first = text.first, first == "_" || first.isLetter else { return false }
        return text.allSatisfy(dialect.isNamePart)
    }

    private func error(_ column: Int, _ message: String) -> LexerError {
        LexerError(column: column, message: message)
    }

    // MARK: - Characters

    /// The unit `offset` characters ahead; nil past the end.
    private func peek(_ offset: Int = 0) -> UInt8? {
        position + offset < units.count ? units[position + offset] : nil
    }

    /// The character at `index`.
    private func character(at index: Int) -> Character {
        characters.isEmpty ? Character(Unicode.Scalar(units[index])) : characters[index]
    }

    private func isNameStart(at index: Int) -> Bool {
        guard index < units.count else { return false }
        let unit = units[index]
        if unit < Self.nonASCII { return Self.isLetter(unit) || unit == UInt8(ascii: "_") }
        return character(at: index).isLetter
    }

    private func isNamePart(at index: Int) -> Bool {
        let unit = units[index]
        if unit < Self.nonASCII {
            return Self.isLetter(unit) || Self.isDigit(unit) || unit == UInt8(ascii: "_")
        }
        return dialect.isNamePart(character(at: index))
    }

    private func isWhitespace(at index: Int) -> Bool {
        let unit = units[index]
        // Tab, line feed, vertical tab, form feed, carriage return, space.
        if unit < Self.nonASCII { return unit == 0x20 || (0x09...0x0D).contains(unit) }
        return character(at: index).isWhitespace
    }

    private func isNewline(at index: Int) -> Bool {
        let unit = units[index]
        // Line feed, vertical tab, form feed, carriage return.
        if unit < Self.nonASCII { return (0x0A...0x0D).contains(unit) }
        return character(at: index).isNewline
    }

    private func isHexDigit(at index: Int) -> Bool {
        guard index < units.count else { return false }
        let unit = units[index]
        if unit < Self.nonASCII { return Character(Unicode.Scalar(unit)).isHexDigit }
        return character(at: index).isHexDigit
    }

    private static func isLetter(_ unit: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(unit | 0x20)
    }

    /// Whether `unit` is an ASCII digit; other digits are not numbers here.
    private static func isDigit(_ unit: UInt8?) -> Bool {
        guard let unit else { return false }
        return (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(unit)
    }

    /// The characters `start..<end` as a string.
    private func string(_ start: Int, _ end: Int) -> String {
        if characters.isEmpty { return String(decoding: units[start..<end], as: UTF8.self) }
        return String(characters[start..<end])
    }

    private mutating func name() -> String {
        let start = position
        while position < units.count, isNamePart(at: position) { position += 1 }
        return string(start, position)
    }

    // MARK: - Tokens

    private mutating func next() throws(LexerError) -> Token {
        while position < units.count, isWhitespace(at: position) { position += 1 }
        let column = position + 1
        guard let c = peek() else { return Token(kind: .end, column: column) }
        if Self.isDigit(c) { return try number(column) }
        if isNameStart(at: position) {
            return Token(kind: .name(name(), escaped: false), column: column)
        }
        func token(_ kind: Token.Kind, length: Int) -> Token {
            position += length
            return Token(kind: kind, column: column)
        }
        // The characters of one dialect only fall through to the operators,
        // where they are errors.
        let predicate = dialect == .predicate
        switch c {
        case UInt8(ascii: "\""), UInt8(ascii: "'"):
            return try string(quote: c, column)
        case UInt8(ascii: "."):
            // `.5` is a number in a predicate; a mapping expression writes `0.5`.
            if predicate, Self.isDigit(peek(1)) { return try number(column) }
            return token(.punctuation("."), length: 1)
        case UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: ","):
            return token(.punctuation(Character(Unicode.Scalar(c))), length: 1)
        case UInt8(ascii: "{"), UInt8(ascii: "}"), UInt8(ascii: "["), UInt8(ascii: "]"):
            guard predicate else { break }
            return token(.punctuation(Character(Unicode.Scalar(c))), length: 1)
        case UInt8(ascii: "-"), UInt8(ascii: "+"):
            guard predicate else { break }
            guard let next = peek(1), Self.isDigit(next) || next == UInt8(ascii: ".") else {
                throw error(column, "expected a number after '\(Unicode.Scalar(c))'")
            }
            return try number(column)
        case UInt8(ascii: "#"):
            guard predicate else { break }
            position += 1
            guard isNameStart(at: position) else {
                throw error(column + 1, "expected a key name after '#'")
            }
            return Token(kind: .name(name(), escaped: true), column: column)
        case UInt8(ascii: "`"):
            guard !predicate else { break }
            return try quotedName(column)
        case UInt8(ascii: "%"):
            guard predicate else { break }
            return try specifier(column)
        case UInt8(ascii: "$"):
            guard predicate else { break }
            position += 1
            guard isNameStart(at: position) else {
                throw error(column + 1, "expected a variable name after '$'")
            }
            return Token(kind: .variable(name()), column: column)
        case UInt8(ascii: "@"):
            guard predicate else { break }
            position += 1
            guard isNameStart(at: position) else {
                throw error(column + 1, "expected an aggregate such as @count after '@'")
            }
            return Token(kind: .aggregate(name()), column: column)
        default:
            break
        }
        if let second = peek(1), let symbol = twoCharacterSymbol(c, second) {
            return token(.symbol(symbol), length: 2)
        }
        return token(.symbol(try oneCharacterSymbol(c, column)), length: 1)
    }

    /// The two-character operator `first` and `second` spell, if any.
    private func twoCharacterSymbol(_ first: UInt8, _ second: UInt8) -> String? {
        switch (Unicode.Scalar(first), Unicode.Scalar(second)) {
        case ("=", "="): "=="
        case ("!", "="): "!="
        case ("<", "="): "<="
        case (">", "="): ">="
        case ("&", "&"): "&&"
        case ("|", "|"): "||"
        case ("<", ">") where dialect == .predicate: "<>"
        case ("=", "<") where dialect == .predicate: "=<"
        case ("=", ">") where dialect == .predicate: "=>"
        case ("?", "?") where dialect == .mapping: "??"
        default: nil
        }
    }

    /// The operator `unit` spells alone; an error when it starts no token.
    private func oneCharacterSymbol(_ unit: UInt8, _ column: Int) throws(LexerError) -> String {
        let scalar = Unicode.Scalar(unit)
        switch (dialect, scalar) {
        case (_, "!"), (_, "<"), (_, ">"), (.predicate, "="), (.mapping, "+"), (.mapping, "-"),
            (.mapping, "*"), (.mapping, "/"):
            return String(scalar)
        case (.predicate, "&"), (.predicate, "|"):
            throw error(
                column, "expected '\(scalar)\(scalar)'; a single '\(scalar)' is not an operator")
        case (.mapping, "="):
            throw error(column, "unexpected '='; compare with '=='")
        case (.predicate, _):
            throw error(column, "unexpected character '\(character(at: position))'")
        case (.mapping, _):
            throw error(
                column,
                "unexpected character '\(character(at: position))'; expected a value, a key "
                    + "path, a function call or an operator")
        }
    }

    // MARK: - Literals

    /// A number: digits, a fraction and an exponent, in a predicate also a
    /// sign, a bare fraction (`.5`) or hexadecimal digits (`0x1F`).
    private mutating func number(_ column: Int) throws(LexerError) -> Token {
        let start = position
        let negative = peek() == UInt8(ascii: "-")
        if negative || peek() == UInt8(ascii: "+") { position += 1 }
        if dialect == .predicate, peek() == UInt8(ascii: "0"), let x = peek(1),
            x == UInt8(ascii: "x") || x == UInt8(ascii: "X")
        {
            position += 2
            var digits = ""
            while isHexDigit(at: position) {
                digits.append(character(at: position))
                position += 1
            }
            guard !digits.isEmpty, let magnitude = Int64(digits, radix: 16) else {
                throw error(column, "expected hexadecimal digits after '0x' (at most 64 bits)")
            }
            return Token(kind: .integer(negative ? -magnitude : magnitude), column: column)
        }
        func digits() {
            while Self.isDigit(peek()) { position += 1 }
        }
        digits()
        var isReal = false
        if peek() == UInt8(ascii: "."), Self.isDigit(peek(1)) {
            isReal = true
            position += 1
            digits()
        }
        if let e = peek(), e == UInt8(ascii: "e") || e == UInt8(ascii: "E") {
            let sign = peek(1) == UInt8(ascii: "-") || peek(1) == UInt8(ascii: "+") ? 1 : 0
            if Self.isDigit(peek(1 + sign)) {
                isReal = true
                position += 1 + sign
                digits()
            }
        }
        // Every character read is ASCII, so its unit is its UTF-8 byte.
        let literal = String(decoding: units[start..<position], as: UTF8.self)
        switch dialect {
        case .predicate:
            if isNameStart(at: position) {
                throw error(position + 1, "expected an operator or a space after the number")
            }
            if !isReal {
                guard let value = Int64(literal) else {
                    throw error(column, "integer literal does not fit in 64 bits")
                }
                return Token(kind: .integer(value), column: column)
            }
            guard let value = Double(literal) else { throw error(column, "expected a number") }
            return Token(kind: .real(value), column: column)
        case .mapping:
            // An integer too large for 64 bits is read as a real.
            if !isReal, let value = Int64(literal) {
                return Token(kind: .integer(value), column: column)
            }
            guard let value = Double(literal), value.isFinite else {
                throw error(column, "number \(literal) is out of range")
            }
            return Token(kind: .real(value), column: column)
        }
    }

    /// A string between `quote`s. Both languages resolve `\\`, `\'`, `\"`,
    /// `\n`, `\t` and `\r`; a predicate also `\0` and `\uXXXX`.
    private mutating func string(quote: UInt8, _ column: Int) throws(LexerError) -> Token {
        position += 1
        var value = ""
        while let c = peek() {
            let current = position
            position += 1
            if c == quote { return Token(kind: .string(value), column: column) }
            guard c == UInt8(ascii: "\\") else {
                if c < Self.nonASCII {
                    value.unicodeScalars.append(Unicode.Scalar(c))
                } else {
                    value.append(character(at: current))
                }
                continue
            }
            let escapeColumn = position
            guard let escaped = peek() else { break }
            let escapedCharacter = character(at: position)
            position += 1
            switch (dialect, Unicode.Scalar(escaped)) {
            case (_, "\\"), (_, "'"), (_, "\""):
                value.unicodeScalars.append(Unicode.Scalar(escaped))
            case (_, "n"): value.append("\n")
            case (_, "t"): value.append("\t")
            case (_, "r"): value.append("\r")
            case (.predicate, "0"): value.append("\0")
            case (.predicate, "u"):
                let count = min(4, units.count - position)
                let digits = (0..<count).map { character(at: position + $0) }
                guard count == 4, (0..<4).allSatisfy({ isHexDigit(at: position + $0) }),
                    let code = UInt32(String(digits), radix: 16),
                    let scalar = Unicode.Scalar(code)
                else {
                    throw error(escapeColumn, "expected four hexadecimal digits after '\\u'")
                }
                value.unicodeScalars.append(scalar)
                position += 4
            case (.predicate, _):
                throw error(
                    escapeColumn,
                    "unknown escape '\\\(escapedCharacter)'; expected "
                        + "\\\\, \\', \\\", \\n, \\t, \\r, \\0 or \\uXXXX")
            case (.mapping, _):
                throw error(
                    escapeColumn,
                    "unknown escape '\\\(escapedCharacter)'; expected \\n \\t \\r \\\\ \\\" or \\'")
            }
        }
        let closing = Unicode.Scalar(quote)
        switch dialect {
        case .predicate: throw error(column, "unterminated string: expected a closing \(closing)")
        case .mapping:
            throw error(column, "unterminated string: expected \(closing) before the end")
        }
    }

    /// A mapping expression's name between backquotes, taken as written: no
    /// escapes, so it may hold anything but a backquote and a line break.
    private mutating func quotedName(_ column: Int) throws(LexerError) -> Token {
        position += 1
        let start = position
        while let c = peek(), c != UInt8(ascii: "`"), !isNewline(at: position) { position += 1 }
        guard peek() == UInt8(ascii: "`") else {
            throw error(column, "unterminated name: expected ` before the end")
        }
        let name = string(start, position)
        position += 1
        guard !name.isEmpty else { throw error(column, "empty name between backquotes") }
        return Token(kind: .name(name, escaped: true), column: column)
    }

    /// A predicate's format specifier: `%@`, `%K`, `%d`, `%i`, `%ld`, `%f`, `%s`
    /// and their `l`/`ll` variants.
    private mutating func specifier(_ column: Int) throws(LexerError) -> Token {
        // Longest first, so `%ld` is not read as `%l` followed by `d`.
        let l = UInt8(ascii: "l")
        let candidate: String? =
            switch (peek(1), peek(2), peek(3)) {
            case (l, l, UInt8(ascii: "d")): "lld"
            case (l, l, UInt8(ascii: "i")): "lli"
            case (l, UInt8(ascii: "d"), _): "ld"
            case (l, UInt8(ascii: "i"), _): "li"
            case (l, UInt8(ascii: "f"), _): "lf"
            case (UInt8(ascii: "@"), _, _): "@"
            case (UInt8(ascii: "K"), _, _): "K"
            case (UInt8(ascii: "d"), _, _): "d"
            case (UInt8(ascii: "i"), _, _): "i"
            case (UInt8(ascii: "f"), _, _): "f"
            case (UInt8(ascii: "s"), _, _): "s"
            default: nil
            }
        guard let candidate else {
            throw error(column, "unknown format specifier; expected %@, %K, %d, %i, %ld, %f or %s")
        }
        position += 1 + candidate.utf8.count
        return Token(kind: .specifier(candidate), column: column)
    }
}
