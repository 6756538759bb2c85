import StrataCore

/// An attribute's validation `pattern`, which must match a whole string, as
/// Core Data's `regularExpressionString` does: an ICU regular expression run
/// within ``RegexLimits/current`` through the shared ``RegexCache`` (so any
/// thread may use it).
struct AttributePattern {
    /// The pattern, as the schema writes it.
    let pattern: String

    /// Checks that `pattern` compiles (a validated schema's always does).
    ///
    /// - Throws: ``RegexError`` naming the pattern and ICU's column of the
    ///   problem.
    init(pattern: String) throws {
        self.pattern = pattern
        try RegexCache.shared.withExpression(pattern, options: []) { _ in }
    }

    /// Whether the pattern matches all of `text`.
    ///
    /// - Throws: ``RegexError`` naming the pattern when the match hits its
    ///   limits: the text could be neither accepted nor refused.
    func matchesWhole(_ text: String) throws -> Bool {
        try RegexCache.shared.withExpression(pattern, options: []) { try $0.matchesWhole(text) }
    }
}
