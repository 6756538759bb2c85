// MARK: - Parsing

extension FetchPredicate {
    /// Parses a predicate in Core Data's `NSPredicate` format language.
    ///
    /// ```swift
    /// let recent = try FetchPredicate(
    ///     "ANY media.type = %@ AND creationTime > $SINCE",
    ///     arguments: [.value(.string("image"))],
    ///     variables: ["SINCE": .date(740_000_000)])
    /// ```
    ///
    /// Keywords are case-insensitive. A comparison with the value on the
    /// left is mirrored (`3 < age` reads as `age > 3`, `%@ IN tags` as
    /// `tags CONTAINS %@`). Variables without a value in `variables` stay
    /// ``ExpressionNode/variable(_:column:)`` for
    /// ``substituting(_:)``.
    ///
    /// - Parameters:
    ///   - format: The predicate text.
    ///   - arguments: One argument per format specifier, in order: values for
    ///     `%@`, `%d`, `%i`, `%ld`, `%f`, `%s`; key paths for `%K`.
    ///   - variables: Values for `$NAME` variables.
    /// - Throws: ``PredicateSyntaxError`` for text that does not parse, too
    ///   few or too many arguments, or an argument of the wrong kind.
    public init(
        _ format: String, arguments: [PredicateArgument] = [],
        variables: [String: PredicateValue] = [:]
    ) throws {
        var parser = try PredicateParser(format, arguments: arguments, variables: variables)
        self = try parser.parse()
    }

    /// The predicate with `$NAME` variables replaced by `variables`.
    ///
    /// - Throws: ``FetchPredicateError`` (`unboundVariable`) naming the first
    ///   variable that `variables` has no value for.
    public func substituting(_ variables: [String: PredicateValue]) throws -> FetchPredicate {
        switch self {
        case .constant: return self
        case .not(let inner): return .not(try inner.substituting(variables))
        case .and(let terms): return .and(try terms.map { try $0.substituting(variables) })
        case .or(let terms): return .or(try terms.map { try $0.substituting(variables) })
        case .comparison(var comparison):
            comparison.left = try comparison.left.substituting(variables, in: self)
            comparison.right = try comparison.right.substituting(variables, in: self)
            return .comparison(PredicateParser.normalized(comparison))
        }
    }

    /// Every `$NAME` variable still unbound, in order of appearance.
    public var variableNames: [String] {
        switch self {
        case .constant: []
        case .not(let inner): inner.variableNames
        case .and(let terms), .or(let terms): terms.flatMap(\.variableNames)
        case .comparison(let comparison):
            comparison.left.variableNames + comparison.right.variableNames
        }
    }
}

extension ExpressionNode {
    func substituting(_ variables: [String: PredicateValue], in predicate: FetchPredicate) throws
        -> ExpressionNode
    {
        switch self {
        case .variable(let name, let column):
            guard let value = variables[name] else {
                throw FetchPredicateError(
                    .unboundVariable, predicate: predicate.redactedDescription, column: column,
                    message: "no value for variable $\(name)")
            }
            return .value(value, column: column)
        case .list(let items):
            return .list(try items.map { try $0.substituting(variables, in: predicate) })
        default:
            return self
        }
    }

    var variableNames: [String] {
        switch self {
        case .variable(let name, _): [name]
        case .list(let items): items.flatMap(\.variableNames)
        default: []
        }
    }
}

extension ExpressionNode {
    /// Why a fetch predicate cannot evaluate the node: operators and
    /// function calls belong to mapping expressions (the predicate parser
    /// never makes them; a tree built by hand may hold them). Nil for the
    /// nodes predicates evaluate.
    var refusalInPredicates: String? {
        switch self {
        case .unary(let op, _, _):
            "the operator '\(op.rawValue)' is not supported in a fetch predicate"
        case .binary(let op, _, _, _):
            "the operator '\(op.symbol)' is not supported in a fetch predicate"
        case .function(let name, _, _):
            "the function call \(name)(…) is not supported in a fetch predicate"
        case .keyPath, .count, .value, .list, .variable: nil
        }
    }
}
