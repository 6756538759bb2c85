import StrataSchema

// MARK: - Checking against a model

extension FetchPredicate {
    /// Checks the predicate against `entity` of `model` before anything runs:
    /// every key path resolves through attributes and relationships
    /// (inherited ones included), to-many paths have `ANY`, `ALL`, `NONE` or
    /// `@count` (or are a `CONTAINS` membership test), and the operands'
    /// types fit the operator (`age CONTAINS 3` is an error: `CONTAINS`
    /// needs strings, `age` is an integer). `MATCHES` patterns must compile.
    ///
    /// ```swift
    /// let text = "ANY media.type = 'image'"
    /// try FetchPredicate(text).check(entity: "DiaryEntry", model: diary, format: text)
    /// ```
    ///
    /// Unbound `$VARIABLES` are not type-checked; check again after
    /// ``substituting(_:)`` to cover them.
    ///
    /// - Parameters:
    ///   - entity: The entity the predicate filters.
    ///   - model: The model describing it.
    ///   - format: The text the predicate was parsed from, quoted by errors
    ///     (whose columns refer to it); without it errors quote the
    ///     predicate's ``redactedDescription`` (values written as `%@`).
    /// - Throws: ``FetchPredicateError`` naming the key, its type and its column;
    ///   `tooComplex` for a tree built in code that nests more than 100
    ///   levels deep, more than 500 comparisons or a key path crossing more
    ///   to-many relationships than SQL can nest (six).
    public func check(entity: String, model: Model, format: String? = nil) throws {
        let checker = PredicateChecker(
            model: model, text: { format ?? redactedDescription }, root: self)
        guard model.entity(named: entity) != nil else {
            throw checker.error(.unknownEntity, 1, "the model has no entity '\(entity)'")
        }
        let (depth, comparisons) = shape
        if let error = FetchPredicate.depthError(depth, quoting: format) { throw error }
        guard comparisons <= PredicateLimits.maximumComparisons else {
            throw checker.error(
                .tooComplex, 1,
                "the predicate has \(comparisons) comparisons; SQLite takes at most "
                    + "\(PredicateLimits.maximumComparisons) in one query (use IN {…} for many "
                    + "values)")
        }
        try checker.check(self, entity: entity)
    }

    /// Parses a predicate and checks it against `entity` of `model`, so that
    /// every error, syntax or type, quotes `format`.
    ///
    /// - Throws: ``PredicateSyntaxError`` or ``FetchPredicateError``.
    public init(
        _ format: String, arguments: [PredicateArgument] = [],
        variables: [String: PredicateValue] = [:], entity: String, model: Model
    ) throws {
        try self.init(format, arguments: arguments, variables: variables)
        try check(entity: entity, model: model, format: format)
    }
}
