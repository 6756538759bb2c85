import Foundation

/// The `MATCHES` operator: an ICU regular expression (`NSRegularExpression`)
/// that must match the whole string, shared by the in-memory evaluator and
/// the SQL compiler (which registers it as an SQLite function).
///
/// `[c]` compiles the pattern case-insensitively; `[d]` folds diacritics off
/// both the string and the pattern with ``PredicateStringFolding``. Compiled
/// patterns are kept in a small cache, so a pattern evaluated for every row
/// compiles once.
///
/// ```swift
/// try PredicateRegex.matches("FINN", pattern: "f.nn", options: .caseInsensitive)  // true
/// ```
public enum PredicateRegex {
    /// Whether the whole of `string` matches `pattern` under `options`.
    ///
    /// - Throws: ``PredicateError`` (`invalidPattern`) when the pattern does
    ///   not compile.
    public static func matches(_ string: String, pattern: String, options: StringOptions) throws
        -> Bool
    {
        let diacritics = options.intersection(.diacriticInsensitive)
        let expression = try compile(
            PredicateStringFolding.fold(pattern, diacritics),
            caseInsensitive: options.contains(.caseInsensitive))
        let text = PredicateStringFolding.fold(string, diacritics)
        let range = NSRange(text.startIndex..<text.endIndex, in: text)
        return expression.firstMatch(in: text, options: [], range: range) != nil
    }

    /// Checks that `pattern` compiles.
    ///
    /// - Throws: ``PredicateError`` (`invalidPattern`) when it does not.
    public static func validate(_ pattern: String, options: StringOptions) throws {
        _ = try compile(
            PredicateStringFolding.fold(pattern, options.intersection(.diacriticInsensitive)),
            caseInsensitive: options.contains(.caseInsensitive))
    }

    // MARK: - Cache

    private static let cache = Cache()

    /// `pattern` anchored at both ends (`\A(?:…)\z`, so that alternatives are
    /// tried until the whole string matches), compiled or taken from the cache.
    static func compile(_ pattern: String, caseInsensitive: Bool) throws -> NSRegularExpression {
        let key = (caseInsensitive ? "i:" : "s:") + pattern
        if let cached = cache[key] { return cached }
        do {
            let expression = try NSRegularExpression(
                pattern: "\\A(?:" + pattern + ")\\z",
                options: caseInsensitive ? [.caseInsensitive] : [])
            cache[key] = expression
            return expression
        } catch {
            throw PredicateError(
                .invalidPattern, predicate: pattern, column: 1,
                message: "the MATCHES pattern is not a valid regular expression")
        }
    }

    /// Compiled expressions by pattern and case option, emptied when full
    /// (patterns are few in practice; the bound only guards against growth).
    private final class Cache: @unchecked Sendable {
        private let lock = NSLock()
        private var expressions: [String: NSRegularExpression] = [:]
        private let limit = 64

        subscript(key: String) -> NSRegularExpression? {
            get { lock.withLock { expressions[key] } }
            set {
                lock.withLock {
                    if expressions.count >= limit { expressions.removeAll() }
                    expressions[key] = newValue
                }
            }
        }
    }
}
