/// A predicate that parses but does not fit a model, or cannot be evaluated:
/// an unknown key, a type mismatch (`age CONTAINS 3`), a to-many key path
/// without `ANY`/`ALL`/`NONE`, a pattern that does not compile, a variable
/// left unbound.
///
/// ```swift
/// do {
///     try predicate.check(entity: "Person", model: model)
/// } catch FetchPredicateError.typeMismatch {
///     print("the values do not fit the keys")
/// }
/// ```
public struct FetchPredicateError: Error, CustomStringConvertible, Sendable {
    /// The kinds of predicate error.
    public enum Code: String, Sendable {
        /// A key the entity (or a destination along the path) does not have.
        case unknownKey
        /// Operands whose types the operator cannot compare.
        case typeMismatch
        /// A to-many key path used without `ANY`, `ALL`, `NONE` or `@count`,
        /// or a quantifier or `@count` on a path that is not to-many.
        case quantifier
        /// A `MATCHES` pattern that does not compile.
        case invalidPattern
        /// A `$VARIABLE` with no value.
        case unboundVariable
        /// The entity is not in the model.
        case unknownEntity
        /// An operand that cannot be evaluated (a malformed tree built in code,
        /// or an object whose properties cannot be read).
        case invalidOperand
        /// A predicate nested too deeply or too large to run: more than 100
        /// levels of `NOT`, parentheses and lists, or, compiled to SQL, more
        /// than 500 comparisons or nesting deeper than SQLite takes (the
        /// Predicates article lists the bounds).
        case tooComplex
    }

    /// What kind of error this is.
    public var code: Code
    /// The predicate, in its format (rebuilt from the tree when it was not
    /// parsed from text).
    public var predicate: String
    /// The 1-based column of the key path or comparison concerned.
    public var column: Int
    /// What is wrong, naming the key and its type.
    public var message: String

    /// Creates a predicate error.
    public init(_ code: Code, predicate: String, column: Int, message: String) {
        self.code = code
        self.predicate = predicate
        self.column = column
        self.message = message
    }

    /// `predicate error at column N: message`, then the predicate and a caret
    /// under the column.
    public var description: String {
        "predicate error at column \(column): \(message)\n"
            + PredicateSyntaxError.pointer(predicate, column: column)
    }
}

// MARK: - Matching

extension FetchPredicateError {
    /// Matches an error of code ``Code/unknownKey``: `catch FetchPredicateError.unknownKey`.
    public static let unknownKey = Code.unknownKey
    /// Matches an error of code ``Code/typeMismatch``: `catch FetchPredicateError.typeMismatch`.
    public static let typeMismatch = Code.typeMismatch
    /// Matches an error of code ``Code/quantifier``: `catch FetchPredicateError.quantifier`.
    public static let quantifier = Code.quantifier
    /// Matches an error of code ``Code/invalidPattern``: `catch FetchPredicateError.invalidPattern`.
    public static let invalidPattern = Code.invalidPattern
    /// Matches an error of code ``Code/unboundVariable``: `catch FetchPredicateError.unboundVariable`.
    public static let unboundVariable = Code.unboundVariable
    /// Matches an error of code ``Code/unknownEntity``: `catch FetchPredicateError.unknownEntity`.
    public static let unknownEntity = Code.unknownEntity
    /// Matches an error of code ``Code/invalidOperand``: `catch FetchPredicateError.invalidOperand`.
    public static let invalidOperand = Code.invalidOperand
    /// Matches an error of code ``Code/tooComplex``: `catch FetchPredicateError.tooComplex`.
    public static let tooComplex = Code.tooComplex
}

extension FetchPredicateError.Code {
    /// Whether `error` is a ``FetchPredicateError`` of this code, so that
    /// `catch FetchPredicateError.unknownKey` (or `case FetchPredicateError.unknownKey`) compiles.
    public static func ~= (pattern: FetchPredicateError.Code, error: any Error) -> Bool {
        (error as? FetchPredicateError)?.code == pattern
    }
}
