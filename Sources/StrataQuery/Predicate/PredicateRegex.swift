import Foundation
import StrataCore

/// The `MATCHES` operator: an ICU regular expression (``RegularExpression``,
/// the dialect of `NSRegularExpression`) that must match the whole string,
/// shared by the in-memory evaluator and the SQL compiler (which registers it
/// as an SQLite function).
///
/// `[c]` compiles the pattern case-insensitively; `[d]` folds diacritics off
/// both the string and the pattern with ``PredicateStringFolding``. Compiled
/// patterns are kept in ``RegexCache``, so a pattern evaluated for every row
/// compiles once per thread. A match runs within ``RegexLimits/current``: a
/// pattern that backtracks past them is an error, never a silent no-match.
///
/// ```swift
/// let matched = try PredicateRegex.matches("FINN", pattern: "f.nn", options: .caseInsensitive)  // true
/// ```
public enum PredicateRegex {
    /// Whether the whole of `string` matches `pattern` under `options`.
    ///
    /// - Throws: ``FetchPredicateError`` (`invalidPattern`) when the pattern does
    ///   not compile; ``RegexError`` (`timeLimit`, `stackLimit`) naming the
    ///   pattern when the match hits ``RegexLimits/current``.
    public static func matches(_ string: String, pattern: String, options: StringOptions) throws
        -> Bool
    {
        let diacritics = options.intersection(.diacriticInsensitive)
        let text = PredicateStringFolding.fold(string, diacritics)
        do {
            return try RegexCache.shared.withExpression(
                PredicateStringFolding.fold(pattern, diacritics),
                options: regexOptions(options)
            ) { try $0.matchesWhole(text) }
        } catch var error as RegexError {
            if error.code == .invalidPattern { throw invalid(pattern, error) }
            error.pattern = pattern  // as written, not folded
            throw error
        }
    }

    /// Checks that `pattern` compiles.
    ///
    /// - Throws: ``FetchPredicateError`` (`invalidPattern`) when it does not,
    ///   with ICU's column of the problem in the message.
    public static func validate(_ pattern: String, options: StringOptions) throws {
        let folded = PredicateStringFolding.fold(
            pattern, options.intersection(.diacriticInsensitive))
        do {
            try RegexCache.shared.withExpression(folded, options: regexOptions(options)) { _ in }
        } catch let error as RegexError {
            throw invalid(pattern, error)
        }
    }

    private static func regexOptions(_ options: StringOptions) -> RegexOptions {
        options.contains(.caseInsensitive) ? .caseInsensitive : []
    }

    private static func invalid(_ pattern: String, _ error: RegexError) -> FetchPredicateError {
        let place = error.column.map { " at column \($0) of the pattern" } ?? ""
        return FetchPredicateError(
            .invalidPattern, predicate: pattern, column: 1,
            message: "the MATCHES pattern is not a valid regular expression\(place): "
                + error.message)
    }
}
