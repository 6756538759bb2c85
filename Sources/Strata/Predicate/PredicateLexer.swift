/// Splits a predicate format string into tokens.
///
/// Columns count characters (extended grapheme clusters) from 1, so a caret
/// placed under a column lines up with what the user sees.
struct PredicateLexer {
    private let characters: [Character]
    private let text: String
    private var position = 0

    init(_ text: String) {
        self.text = text
        // ASCII text without CR (CR LF is one character) has one character
        // per byte: made from the bytes, without breaking graphemes.
        let utf8 = text.utf8
        if utf8.allSatisfy({ $0 < 0x80 && $0 != 0x0D }) {
            var characters: [Character] = []
            characters.reserveCapacity(utf8.count)
            for byte in utf8 { characters.append(Character(Unicode.Scalar(byte))) }
            self.characters = characters
        } else {
            self.characters = Array(text)
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

    private func peek(_ offset: Int = 0) -> Character? {
        position + offset < characters.count ? characters[position + offset] : nil
    }

    // The character classes answer ASCII characters (nearly all of a
    // predicate) without Unicode property look-ups; the answers are the same.

    private static func isNameStart(_ c: Character) -> Bool {
        if let byte = c.asciiValue { return isASCIILetter(byte) || byte == UInt8(ascii: "_") }
        return c.isLetter
    }

    private static func isNamePart(_ c: Character) -> Bool {
        if let byte = c.asciiValue {
            return isASCIILetter(byte) || isASCIIDigit(byte) || byte == UInt8(ascii: "_")
        }
        return c.isLetter || c.isNumber
    }

    private static func isWhitespace(_ c: Character) -> Bool {
        // ASCII whitespace: tab, line feed, vertical tab, form feed, carriage
        // return (and CR LF, whose ASCII value is a line feed's) and space.
        if let byte = c.asciiValue { return byte == 0x20 || (0x09...0x0D).contains(byte) }
        return c.isWhitespace
    }

    /// Whether `c` is an ASCII digit (`Character.isNumber` restricted to ASCII).
    private static func isDigit(_ c: Character) -> Bool {
        c.asciiValue.map(isASCIIDigit) ?? false
    }

    private static func isASCIILetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
    }

    private static func isASCIIDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }

    private mutating func name() -> String {
        var name = ""
        while let c = peek(), PredicateLexer.isNamePart(c) {
            name.append(c)
            position += 1
        }
        return name
    }

    mutating func next() throws -> PredicateToken {
        while let c = peek(), PredicateLexer.isWhitespace(c) { position += 1 }
        let column = position + 1
        guard let c = peek() else { return PredicateToken(kind: .end, column: column) }
        func token(_ kind: PredicateToken.Kind, length: Int) -> PredicateToken {
            position += length
            return PredicateToken(kind: kind, column: column)
        }
        switch c {
        case "(", ")", "{", "}", "[", "]", ",", ".":
            if c == ".", let digit = peek(1), PredicateLexer.isDigit(digit) {
                return try number(column)
            }
            return token(.punctuation(c), length: 1)
        case "\"", "'":
            return try string(quote: c, column)
        case "=", "!", "<", ">", "&", "|":
            if let second = peek(1), let two = PredicateLexer.twoCharacterSymbol(c, second) {
                return token(.symbol(two), length: 2)
            }
            if c == "&" || c == "|" {
                throw error(column, "expected '\(c)\(c)'; a single '\(c)' is not an operator")
            }
            return token(.symbol(String(c)), length: 1)
        case "%":
            return try specifier(column)
        case "$":
            position += 1
            guard let first = peek(), PredicateLexer.isNameStart(first) else {
                throw error(column + 1, "expected a variable name after '$'")
            }
            return PredicateToken(kind: .variable(name()), column: column)
        case "@":
            position += 1
            guard let first = peek(), PredicateLexer.isNameStart(first) else {
                throw error(column + 1, "expected an aggregate such as @count after '@'")
            }
            return PredicateToken(kind: .aggregate(name()), column: column)
        case "#":
            position += 1
            guard let first = peek(), PredicateLexer.isNameStart(first) else {
                throw error(column + 1, "expected a key name after '#'")
            }
            return PredicateToken(kind: .name(name(), escaped: true), column: column)
        case "-", "+":
            guard let next = peek(1), PredicateLexer.isDigit(next) || next == "." else {
                throw error(column, "expected a number after '\(c)'")
            }
            return try number(column)
        default:
            if PredicateLexer.isDigit(c) { return try number(column) }
            if PredicateLexer.isNameStart(c) {
                return PredicateToken(kind: .name(name(), escaped: false), column: column)
            }
            throw error(column, "unexpected character '\(c)'")
        }
    }

    // MARK: - Literals

    private mutating func number(_ column: Int) throws -> PredicateToken {
        var literal = ""
        if let sign = peek(), sign == "-" || sign == "+" {
            literal.append(sign)
            position += 1
        }
        if peek() == "0", let x = peek(1), x == "x" || x == "X" {
            position += 2
            var digits = ""
            while let c = peek(), c.isHexDigit {
                digits.append(c)
                position += 1
            }
            guard !digits.isEmpty, let magnitude = Int64(digits, radix: 16) else {
                throw error(column, "expected hexadecimal digits after '0x' (at most 64 bits)")
            }
            return PredicateToken(
                kind: .integer(literal == "-" ? -magnitude : magnitude), column: column)
        }
        var isReal = false
        while let c = peek() {
            if PredicateLexer.isDigit(c) {
                literal.append(c)
            } else if c == "." && !isReal, let d = peek(1), PredicateLexer.isDigit(d) {
                isReal = true
                literal.append(c)
            } else if c == "e" || c == "E" {
                let sign = peek(1).map { $0 == "-" || $0 == "+" } ?? false
                guard let digit = peek(sign ? 2 : 1), PredicateLexer.isDigit(digit) else { break }
                isReal = true
                literal.append(c)
                if sign, let s = peek(1) { literal.append(s) }
                position += sign ? 1 : 0
            } else {
                break
            }
            position += 1
        }
        if let c = peek(), PredicateLexer.isNameStart(c) {
            throw error(position + 1, "expected an operator or a space after the number")
        }
        if !isReal, let value = Int64(literal) {
            return PredicateToken(kind: .integer(value), column: column)
        }
        if !isReal {
            throw error(column, "integer literal does not fit in 64 bits")
        }
        guard let value = Double(literal) else {
            throw error(column, "expected a number")
        }
        return PredicateToken(kind: .real(value), column: column)
    }

    private mutating func string(quote: Character, _ column: Int) throws -> PredicateToken {
        position += 1
        var value = ""
        while let c = peek() {
            position += 1
            if c == quote { return PredicateToken(kind: .string(value), column: column) }
            guard c == "\\" else {
                value.append(c)
                continue
            }
            let escapeColumn = position
            guard let escaped = peek() else { break }
            position += 1
            switch escaped {
            case "\\", "'", "\"": value.append(escaped)
            case "n": value.append("\n")
            case "t": value.append("\t")
            case "r": value.append("\r")
            case "0": value.append("\0")
            case "u":
                let digits = (0..<4).compactMap { peek($0) }
                guard digits.count == 4, digits.allSatisfy(\.isHexDigit),
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
                    "unknown escape '\\\(escaped)'; expected "
                        + "\\\\, \\', \\\", \\n, \\t, \\r, \\0 or \\uXXXX")
            }
        }
        throw error(column, "unterminated string: expected a closing \(quote)")
    }

    private mutating func specifier(_ column: Int) throws -> PredicateToken {
        // Longest first, so `%ld` is not read as `%l` followed by `d`.
        let candidate: String? =
            switch (peek(1), peek(2), peek(3)) {
            case ("l", "l", "d"): "lld"
            case ("l", "l", "i"): "lli"
            case ("l", "d", _): "ld"
            case ("l", "i", _): "li"
            case ("l", "f", _): "lf"
            case ("@", _, _): "@"
            case ("K", _, _): "K"
            case ("d", _, _): "d"
            case ("i", _, _): "i"
            case ("f", _, _): "f"
            case ("s", _, _): "s"
            default: nil
            }
        guard let candidate else {
            throw error(column, "unknown format specifier; expected %@, %K, %d, %i, %ld, %f or %s")
        }
        position += 1 + candidate.utf8.count
        return PredicateToken(kind: .specifier(candidate), column: column)
    }

    /// The two-character operator `first` and `second` spell, if any.
    private static func twoCharacterSymbol(_ first: Character, _ second: Character) -> String? {
        switch (first, second) {
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
