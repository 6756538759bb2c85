/// The `LIKE` operator's wildcard matching, shared by the in-memory evaluator
/// and the SQL compiler (which registers it as an SQLite function).
///
/// The pattern must match the whole string: `*` matches any run of
/// characters (none included), `?` exactly one character, and a backslash
/// makes the next character literal (`\*`, `\?`, `\\`). Characters are
/// extended grapheme clusters and compare by their Unicode scalars, after
/// both sides are folded with ``PredicateStringFolding/fold(_:_:)``.
///
/// ```swift
/// let liked = PredicateLike.matches("Countess", pattern: "c*ss", options: .caseInsensitive)  // true
/// ```
public enum PredicateLike {
    private enum Element {
        case literal(Character)
        case one
        case any
    }

    /// Whether `string` matches `pattern` under `options`.
    public static func matches(_ string: String, pattern: String, options: StringOptions) -> Bool {
        let text = Array(PredicateStringFolding.fold(string, options))
        let elements = compile(PredicateStringFolding.fold(pattern, options))
        // Greedy matching that backtracks only to the last `*`: linear in
        // practice, at worst text × pattern.
        var t = 0
        var p = 0
        var star: (pattern: Int, text: Int)?
        while t < text.count {
            if p < elements.count {
                switch elements[p] {
                case .any:
                    star = (p, t)
                    p += 1
                    continue
                case .one:
                    t += 1
                    p += 1
                    continue
                case .literal(let c) where same(c, text[t]):
                    t += 1
                    p += 1
                    continue
                case .literal:
                    break
                }
            }
            guard let last = star else { return false }
            star = (last.pattern, last.text + 1)
            p = last.pattern + 1
            t = last.text + 1
        }
        while p < elements.count, case .any = elements[p] { p += 1 }
        return p == elements.count
    }

    private static func compile(_ pattern: String) -> [Element] {
        var elements: [Element] = []
        var escaped = false
        for c in pattern {
            if escaped {
                elements.append(.literal(c))
                escaped = false
            } else if c == "\\" {
                escaped = true
            } else if c == "*" {
                if case .any? = elements.last { continue }  // `**` is `*`
                elements.append(.any)
            } else if c == "?" {
                elements.append(.one)
            } else {
                elements.append(.literal(c))
            }
        }
        if escaped { elements.append(.literal("\\")) }  // A trailing backslash is literal.
        return elements
    }

    /// Character equality by scalars: binary, like SQL, not canonical.
    private static func same(_ a: Character, _ b: Character) -> Bool {
        a.unicodeScalars.elementsEqual(b.unicodeScalars)
    }
}
