import StrataCore

// MARK: - Evaluating in memory

extension FetchPredicate {
    /// Whether `subject` satisfies the predicate (Core Data's
    /// `evaluate(with:)` and `filteredArrayUsingPredicate`), with the same
    /// results as the predicate compiled to SQL:
    ///
    /// - Every comparison is true or false, never unknown, and `NOT` negates
    ///   it: a comparison with nil is false except `= nil` on a missing value
    ///   and `!=`, which is true when the sides differ (`x != 3` holds for a
    ///   missing `x`, as Core Data's `(x <> ? OR x IS NULL)`).
    /// - A missing to-one destination along a key path reads as nil (a
    ///   `LEFT JOIN`), and has no destinations to count.
    /// - Numbers compare by value across integers, reals, booleans (0/1)
    ///   and dates (seconds since 2001); strings by UTF-8 bytes unless
    ///   `[c]`/`[d]` fold them (``PredicateStringFolding``).
    /// - `ANY`/`SOME` holds when a destination matches, `ALL` when every one
    ///   does (so for none), `NONE` when none does. `IN` never matches nil.
    ///
    /// - Throws: ``FetchPredicateError`` for an unbound variable, a pattern that
    ///   does not compile, or a key the subject does not have;
    ///   ``RegexError`` naming the pattern and the subject's object id when
    ///   a `MATCHES` hits its ``RegexLimits``.
    public func evaluate(with subject: some PredicateSubject) throws -> Bool {
        do {
            return try PredicateEvaluator(root: self).evaluate(self, subject)
        } catch let error as RegexError {
            guard let id = subject.predicateObjectID else { throw error }
            throw error.matching(id.description)
        }
    }
}

/// Evaluates a predicate tree on one subject; holds the root for messages.
struct PredicateEvaluator {
    let root: FetchPredicate

    /// - Parameter depth: The levels of `NOT`, `AND` and `OR` above
    ///   `predicate`; a tree built in code deeper than the parser allows is
    ///   refused rather than risking the stack.
    package func evaluate(
        _ predicate: FetchPredicate, _ subject: any PredicateSubject, depth: Int = 0
    )
        throws -> Bool
    {
        guard depth <= PredicateLimits.maximumDepth else {
            throw FetchPredicateError(
                .tooComplex, predicate: "", column: 1,
                message: "the predicate nests deeper than \(PredicateLimits.maximumDepth) "
                    + "levels of NOT, AND and OR")
        }
        switch predicate {
        case .constant(let value): return value
        case .not(let inner): return !(try evaluate(inner, subject, depth: depth + 1))
        case .and(let terms):
            for term in terms where !(try evaluate(term, subject, depth: depth + 1)) {
                return false
            }
            return true
        case .or(let terms):
            for term in terms where try evaluate(term, subject, depth: depth + 1) { return true }
            return false
        case .comparison(let comparison): return try evaluate(comparison, subject)
        }
    }

    package func error(_ code: FetchPredicateError.Code, _ column: Int, _ message: String)
        -> FetchPredicateError
    {
        FetchPredicateError(
            code, predicate: root.redactedDescription, column: column, message: message)
    }

    // MARK: - Comparisons

    package func evaluate(_ comparison: Comparison, _ subject: any PredicateSubject) throws -> Bool
    {
        let right = try resolve(comparison.right, subject, comparison)
        if comparison.quantifier == .direct {
            let left = try resolve(comparison.left, subject, comparison)
            return try compare(left, right, comparison)
        }
        let elements = try elementsOf(comparison.left, subject, comparison)
        switch comparison.quantifier {
        case .any, .direct:
            for element in elements where try compare(element, right, comparison) { return true }
            return false
        case .all:
            for element in elements where !(try compare(element, right, comparison)) {
                return false
            }
            return true
        case .none:
            for element in elements where try compare(element, right, comparison) { return false }
            return true
        }
    }

    /// `left op right` for one value on each side.
    package func compare(_ left: PredicateValue, _ right: PredicateValue, _ comparison: Comparison)
        throws -> Bool
    {
        let options = comparison.options
        switch comparison.op {
        case .equal: return left.equals(right, options: options)
        case .notEqual: return !left.equals(right, options: options)
        case .less: return left.order(right, options: options).map { $0 < 0 } ?? false
        case .lessOrEqual: return left.order(right, options: options).map { $0 <= 0 } ?? false
        case .greater: return left.order(right, options: options).map { $0 > 0 } ?? false
        case .greaterOrEqual: return left.order(right, options: options).map { $0 >= 0 } ?? false
        case .between:
            guard case .array(let bounds) = right, bounds.count == 2 else {
                throw error(
                    .invalidOperand, comparison.column, "BETWEEN needs a list of two values")
            }
            guard let low = left.order(bounds[0], options: options),
                let high = left.order(bounds[1], options: options)
            else { return false }
            return low >= 0 && high <= 0
        case .in:
            switch right {
            case .array(let items):
                return !left.isNull
                    && items.contains { !$0.isNull && left.equals($0, options: options) }
            case .string(let container):
                guard case .string(let part) = left else { return false }
                return contains(container, part, options)
            default: return false
            }
        case .contains:
            switch left {
            case .array(let items):
                return !right.isNull
                    && items.contains { !$0.isNull && $0.equals(right, options: options) }
            case .string(let container):
                guard case .string(let part) = right else { return false }
                return contains(container, part, options)
            default: return false
            }
        case .beginsWith, .endsWith, .like, .matches:
            guard case .string(let text) = left, case .string(let operand) = right else {
                return false
            }
            return try match(text, operand, comparison)
        }
    }

    private func contains(_ container: String, _ part: String, _ options: StringOptions) -> Bool {
        PredicateStringFolding.containsBytes(
            PredicateStringFolding.fold(container, options),
            PredicateStringFolding.fold(part, options))
    }

    private func match(_ text: String, _ operand: String, _ comparison: Comparison) throws -> Bool {
        let options = comparison.options
        switch comparison.op {
        case .beginsWith:
            return PredicateStringFolding.fold(text, options).utf8
                .starts(with: PredicateStringFolding.fold(operand, options).utf8)
        case .endsWith:
            return PredicateStringFolding.fold(text, options).utf8.reversed()
                .starts(with: PredicateStringFolding.fold(operand, options).utf8.reversed())
        case .like:
            return PredicateLike.matches(text, pattern: operand, options: options)
        default:
            do {
                return try PredicateRegex.matches(text, pattern: operand, options: options)
            } catch let invalid as FetchPredicateError {
                throw self.error(.invalidPattern, comparison.column, invalid.message)
            }
        }
    }
}
