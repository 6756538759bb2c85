/// The bounds a predicate must stay within, so that neither Strata's
/// recursive walks nor SQLite's parser meet input they cannot take.
///
/// - Parsing refuses more than ``maximumDepth`` levels of `NOT`, `(` and
///   `{` with a ``PredicateSyntaxError`` at the token that goes too deep;
///   checking and evaluating a tree built in code refuse it with a
///   ``FetchPredicateError`` (`tooComplex`).
/// - Compiling to SQL refuses more than ``maximumComparisons`` comparisons
///   (SQLite's expression trees are at most 1,000 levels deep, and every
///   `AND` adds one), SQL nested deeper than ``maximumSQLNesting`` (SQLite's
///   parser stack holds a hundred entries: 45 levels of `NOT`, but only 9
///   of subqueries) and more than ``maximumArguments``
///   bound values, each with a `FetchPredicateError` (`tooComplex`) that quotes
///   the predicate.
enum PredicateLimits {
    /// The deepest nesting of `NOT`, `!`, parentheses and `{…}` lists.
    static let maximumDepth = 100
    /// The most comparisons one predicate compiled to SQL may hold.
    static let maximumComparisons = 500
    /// The deepest SQL nesting a compiled predicate may reach, in about
    /// SQLite's parser-stack entries (it has 100; the rest is left for the
    /// statement around the condition). Measured on SQLite 3.40: 45 nested
    /// `NOT`s, 30 nested `AND`/`OR` groups or 9 nested to-many subqueries
    /// fill the stack, so each counts a little more than it takes.
    static let maximumSQLNesting = 80
    /// The nesting one `NOT` counts for: `((…) IS NOT 1)`.
    static let notNesting = 3
    /// The nesting one parenthesised `AND` or `OR` group counts for.
    static let groupNesting = 4
    /// The nesting one to-many step (`ANY`, `ALL`, `NONE`, `@count`)
    /// counts for: a correlated subquery.
    static let subqueryNesting = 12
    /// The most values one compiled predicate may bind (SQLite's
    /// `SQLITE_MAX_VARIABLE_NUMBER`).
    static let maximumArguments = 32_766
}

extension FetchPredicate {
    /// The deepest nesting of `NOT`, `AND` and `OR` and lists in the tree,
    /// and its number of comparisons; computed without recursion, so that a
    /// tree of any depth built in code can be measured.
    var shape: (depth: Int, comparisons: Int) {
        var deepest = 0
        var comparisons = 0
        var pending: [(FetchPredicate, Int)] = [(self, 0)]
        while let (predicate, depth) = pending.popLast() {
            deepest = max(deepest, depth)
            switch predicate {
            case .constant: break
            case .not(let inner): pending.append((inner, depth + 1))
            case .and(let terms), .or(let terms):
                pending += terms.map { ($0, depth + 1) }
            case .comparison(let comparison):
                comparisons += 1
                deepest = max(
                    deepest,
                    depth + comparison.left.height - 1, depth + comparison.right.height - 1)
            }
        }
        return (deepest, comparisons)
    }

    /// A `tooComplex` error when the tree nests deeper than
    /// ``PredicateLimits/maximumDepth``, which the recursive walks
    /// (checking, evaluating, compiling, printing) need; nil otherwise.
    ///
    /// - Parameters:
    ///   - depth: The tree's depth, from ``shape``.
    ///   - text: The predicate's text when known; a tree too deep to walk
    ///     is not printed.
    static func depthError(_ depth: Int, quoting text: String?) -> FetchPredicateError? {
        guard depth > PredicateLimits.maximumDepth else { return nil }
        return FetchPredicateError(
            .tooComplex, predicate: text ?? "", column: 1,
            message: "the predicate nests \(depth) levels deep; "
                + "expected at most \(PredicateLimits.maximumDepth)")
    }
}

extension FetchPredicate {
    /// The column of the first comparison in the tree (1 when it has none),
    /// to locate an error about a whole group.
    var firstColumn: Int {
        var column = 1
        forEachComparison { comparison in
            column = comparison.column
            return false
        }
        return column
    }

    /// Calls `body` with each comparison in the order of the text, without
    /// recursion, until it returns false.
    func forEachComparison(_ body: (Comparison) -> Bool) {
        var pending = [self]
        while let predicate = pending.popLast() {
            switch predicate {
            case .constant: break
            case .not(let inner): pending.append(inner)
            case .and(let terms), .or(let terms): pending += terms.reversed()
            case .comparison(let comparison): if !body(comparison) { return }
            }
        }
    }
}
