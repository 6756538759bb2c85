import StrataValues

/// An attribute's validation `pattern`, which must match a whole string, as
/// Core Data's `regularExpressionString` does: an ICU regular expression run
/// within ``RegexLimits/current`` through the shared ``RegexCache`` (so any
/// thread may use it).
struct AttributePattern {
    /// The pattern, as the schema writes it.
    let pattern: String

    /// Checks that `pattern` compiles (a validated schema's always does).
    ///
    /// A plain pattern (``isPlainPattern(_:)``) is one ICU always
    /// accepts, so it is not compiled here: compiling loads ICU, over a
    /// millisecond that a context which never checks this attribute's values
    /// (`strata query`) would pay. Any other is compiled now.
    ///
    /// - Throws: ``RegexError`` naming the pattern and ICU's column of the
    ///   problem.
    init(pattern: String) throws {
        self.pattern = pattern
        guard !Self.isPlainPattern(pattern) else { return }
        try RegexCache.shared.withExpression(pattern, options: []) { _ in }
    }

    /// Whether `pattern` is in a small, plain form of regular expression
    /// that every ICU version accepts, so that it need not be compiled to
    /// know it is valid: ASCII letters, digits, spaces, `_` and `-`; the
    /// anchors `^` and `$`; `|`; balanced parentheses; classes of letters,
    /// digits and ascending ranges (`[0-9A-F]`); and one `*`, `+`, `?`,
    /// `{n}`, `{n,}` or `{n,m}` (n ≤ m, at most three digits each) after a
    /// letter, a group or a class. `^(image|sound)$` and `^[0-9a-f]{32}$`
    /// are; anything else is left to ICU.
    static func isPlainPattern(_ pattern: String) -> Bool {
        let bytes = Array(pattern.utf8)
        var index = 0
        var depth = 0
        /// Whether the last item can take a quantifier.
        var quantifiable = false
        func isWord(_ byte: UInt8) -> Bool {
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
        }
        /// A run of one to three digits at `index`, read past.
        func number() -> Int? {
            var value = 0
            var digits = 0
            while index < bytes.count, digits < 4,
                (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index])
            {
                value = value * 10 + Int(bytes[index] - UInt8(ascii: "0"))
                digits += 1
                index += 1
            }
            return (1...3).contains(digits) ? value : nil
        }
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            switch byte {
            case _ where isWord(byte), UInt8(ascii: "_"), UInt8(ascii: " "), UInt8(ascii: "-"):
                quantifiable = true
            case UInt8(ascii: "^"), UInt8(ascii: "$"), UInt8(ascii: "|"):
                quantifiable = false
            case UInt8(ascii: "("):
                depth += 1
                quantifiable = false
            case UInt8(ascii: ")"):
                guard depth > 0 else { return false }
                depth -= 1
                quantifiable = true
            case UInt8(ascii: "["):
                var members = 0
                while index < bytes.count, bytes[index] != UInt8(ascii: "]") {
                    let low = bytes[index]
                    guard isWord(low) else { return false }
                    index += 1
                    if index + 1 < bytes.count, bytes[index] == UInt8(ascii: "-"),
                        bytes[index + 1] != UInt8(ascii: "]")
                    {
                        let high = bytes[index + 1]
                        guard isWord(high), low <= high else { return false }
                        index += 2
                    }
                    members += 1
                }
                guard index < bytes.count, members > 0 else { return false }
                index += 1  // The `]`.
                quantifiable = true
            case UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "?"):
                guard quantifiable else { return false }
                quantifiable = false
            case UInt8(ascii: "{"):
                guard quantifiable, let low = number() else { return false }
                if index < bytes.count, bytes[index] == UInt8(ascii: ",") {
                    index += 1
                    if index < bytes.count, bytes[index] != UInt8(ascii: "}") {
                        guard let high = number(), low <= high else { return false }
                    }
                }
                guard index < bytes.count, bytes[index] == UInt8(ascii: "}") else { return false }
                index += 1
                quantifiable = false
            default:
                return false
            }
        }
        return depth == 0
    }

    /// Whether the pattern matches all of `text`.
    ///
    /// - Throws: ``RegexError`` naming the pattern when the match hits its
    ///   limits: the text could be neither accepted nor refused.
    func matchesWhole(_ text: String) throws -> Bool {
        try RegexCache.shared.withExpression(pattern, options: []) { try $0.matchesWhole(text) }
    }
}
