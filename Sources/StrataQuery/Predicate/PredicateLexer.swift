/// Splits a predicate format string into tokens.
///
/// Columns count characters (extended grapheme clusters) from 1, so a caret
/// placed under a column lines up with what the user sees.
///
/// The lexer reads one code unit per character: the character's ASCII value,
/// or ``nonASCII`` for any other character (CR LF included), whose class is
/// then asked of the `Character` itself. Predicates are nearly always ASCII
/// without CR; their text is read as its bytes, with no grapheme breaking
/// and no `Character` made unless a token holds one.
struct PredicateLexer {
    /// The unit of a character that is not a single ASCII scalar.
    private static let nonASCII: UInt8 = 0x80

    private let text: String
    /// One unit per character (see above).
    private let units: [UInt8]
    /// The characters, when the text is not plain ASCII; empty otherwise
    /// (each unit is then its character).
    private let characters: [Character]
    private var position = 0

    init(_ text: String) {
        self.text = text
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

    /// Every token of the text, ending with `.end`.
    static func tokens(of text: String) throws -> [PredicateToken] {
        var lexer = PredicateLexer(text)
        var tokens: [PredicateToken] = []
        while true {
            let token = try lexer.next()
            tokens.append(token)
            if token.kind == .end { return tokens }
        }
    }

    private func error(_ column: Int, _ message: String) -> PredicateSyntaxError {
        PredicateSyntaxError(predicate: text, column: column, message: message)
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
        let character = character(at: index)
        return character.isLetter || character.isNumber
    }

    private func isWhitespace(at index: Int) -> Bool {
        let unit = units[index]
        // Tab, line feed, vertical tab, form feed, carriage return, space.
        if unit < Self.nonASCII { return unit == 0x20 || (0x09...0x0D).contains(unit) }
        return character(at: index).isWhitespace
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

    package mutating func next() throws -> PredicateToken {
        while position < units.count, isWhitespace(at: position) { position += 1 }
        let column = position + 1
        guard let c = peek() else { return PredicateToken(kind: .end, column: column) }
        func token(_ kind: PredicateToken.Kind, length: Int) -> PredicateToken {
            position += length
            return PredicateToken(kind: kind, column: column)
        }
        let character = character(at: position)
        switch c {
        case UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "{"), UInt8(ascii: "}"),
            UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: ","), UInt8(ascii: "."):
            if c == UInt8(ascii: "."), Self.isDigit(peek(1)) { return try number(column) }
            return token(.punctuation(character), length: 1)
        case UInt8(ascii: "\""), UInt8(ascii: "'"):
            return try string(quote: c, column)
        case UInt8(ascii: "="), UInt8(ascii: "!"), UInt8(ascii: "<"), UInt8(ascii: ">"),
            UInt8(ascii: "&"), UInt8(ascii: "|"):
            if let second = peek(1), let two = Self.twoCharacterSymbol(c, second) {
                return token(.symbol(two), length: 2)
            }
            if c == UInt8(ascii: "&") || c == UInt8(ascii: "|") {
                throw error(
                    column,
                    "expected '\(character)\(character)'; a single '\(character)' is not an operator"
                )
            }
            return token(.symbol(String(character)), length: 1)
        case UInt8(ascii: "%"):
            return try specifier(column)
        case UInt8(ascii: "$"):
            position += 1
            guard isNameStart(at: position) else {
                throw error(column + 1, "expected a variable name after '$'")
            }
            return PredicateToken(kind: .variable(name()), column: column)
        case UInt8(ascii: "@"):
            position += 1
            guard isNameStart(at: position) else {
                throw error(column + 1, "expected an aggregate such as @count after '@'")
            }
            return PredicateToken(kind: .aggregate(name()), column: column)
        case UInt8(ascii: "#"):
            position += 1
            guard isNameStart(at: position) else {
                throw error(column + 1, "expected a key name after '#'")
            }
            return PredicateToken(kind: .name(name(), escaped: true), column: column)
        case UInt8(ascii: "-"), UInt8(ascii: "+"):
            guard let next = peek(1), Self.isDigit(next) || next == UInt8(ascii: ".") else {
                throw error(column, "expected a number after '\(character)'")
            }
            return try number(column)
        default:
            if Self.isDigit(c) { return try number(column) }
            if isNameStart(at: position) {
                return PredicateToken(kind: .name(name(), escaped: false), column: column)
            }
            throw error(column, "unexpected character '\(character)'")
        }
    }

    // MARK: - Literals

    private mutating func number(_ column: Int) throws -> PredicateToken {
        var literal: [UInt8] = []
        if let sign = peek(), sign == UInt8(ascii: "-") || sign == UInt8(ascii: "+") {
            literal.append(sign)
            position += 1
        }
        if peek() == UInt8(ascii: "0"), let x = peek(1),
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
            return PredicateToken(
                kind: .integer(literal == [UInt8(ascii: "-")] ? -magnitude : magnitude),
                column: column)
        }
        var isReal = false
        while let c = peek() {
            if Self.isDigit(c) {
                literal.append(c)
            } else if c == UInt8(ascii: "."), !isReal, Self.isDigit(peek(1)) {
                isReal = true
                literal.append(c)
            } else if c == UInt8(ascii: "e") || c == UInt8(ascii: "E") {
                let sign =
                    peek(1).map { $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "+") } ?? false
                guard Self.isDigit(peek(sign ? 2 : 1)) else { break }
                isReal = true
                literal.append(c)
                if sign, let s = peek(1) { literal.append(s) }
                position += sign ? 1 : 0
            } else {
                break
            }
            position += 1
        }
        if isNameStart(at: position) {
            throw error(position + 1, "expected an operator or a space after the number")
        }
        let text = String(decoding: literal, as: UTF8.self)
        if !isReal, let value = Int64(text) {
            return PredicateToken(kind: .integer(value), column: column)
        }
        if !isReal {
            throw error(column, "integer literal does not fit in 64 bits")
        }
        guard let value = Double(text) else {
            throw error(column, "expected a number")
        }
        return PredicateToken(kind: .real(value), column: column)
    }

    private mutating func string(quote: UInt8, _ column: Int) throws -> PredicateToken {
        position += 1
        var value = ""
        while let c = peek() {
            let current = position
            position += 1
            if c == quote { return PredicateToken(kind: .string(value), column: column) }
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
            switch escaped {
            case UInt8(ascii: "\\"), UInt8(ascii: "'"), UInt8(ascii: "\""):
                value.unicodeScalars.append(Unicode.Scalar(escaped))
            case UInt8(ascii: "n"): value.append("\n")
            case UInt8(ascii: "t"): value.append("\t")
            case UInt8(ascii: "r"): value.append("\r")
            case UInt8(ascii: "0"): value.append("\0")
            case UInt8(ascii: "u"):
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
            default:
                throw error(
                    escapeColumn,
                    "unknown escape '\\\(escapedCharacter)'; expected "
                        + "\\\\, \\', \\\", \\n, \\t, \\r, \\0 or \\uXXXX")
            }
        }
        let quoteCharacter = Character(Unicode.Scalar(quote))
        throw error(column, "unterminated string: expected a closing \(quoteCharacter)")
    }

    private mutating func specifier(_ column: Int) throws -> PredicateToken {
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
        return PredicateToken(kind: .specifier(candidate), column: column)
    }

    /// The two-character operator `first` and `second` spell, if any.
    private static func twoCharacterSymbol(_ first: UInt8, _ second: UInt8) -> String? {
        switch (Unicode.Scalar(first), Unicode.Scalar(second)) {
        case ("=", "="): "=="
        case ("!", "="): "!="
        case ("<", ">"): "<>"
        case ("<", "="): "<="
        case ("=", "<"): "=<"
        case (">", "="): ">="
        case ("=", ">"): "=>"
        case ("&", "&"): "&&"
        case ("|", "|"): "||"
        default: nil
        }
    }
}
