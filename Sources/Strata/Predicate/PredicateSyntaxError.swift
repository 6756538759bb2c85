/// A predicate format string that does not parse, or whose arguments do not
/// fit its format specifiers.
///
/// The description quotes the predicate and puts a caret under the column:
///
/// ```
/// predicate syntax error at column 5: expected a value or key path after '>'
///   age >
///        ^
/// ```
public struct PredicateSyntaxError: Error, CustomStringConvertible, Sendable {
    /// The predicate text as given.
    public var predicate: String
    /// The 1-based column (in characters) of the offending token.
    public var column: Int
    /// What was found and what was expected there.
    public var message: String

    /// Creates a syntax error.
    public init(predicate: String, column: Int, message: String) {
        self.predicate = predicate
        self.column = column
        self.message = message
    }

    /// `predicate syntax error at column N: message`, then the predicate and a
    /// caret under the column.
    public var description: String {
        "predicate syntax error at column \(column): \(message)\n"
            + PredicateSyntaxError.pointer(predicate, column: column)
    }

    /// The predicate on one line (line breaks shown as spaces) and a caret
    /// under `column` on the next, both indented by two spaces.
    static func pointer(_ predicate: String, column: Int) -> String {
        let line = String(predicate.map { $0.isNewline ? " " : $0 })
        let offset = max(0, min(column - 1, line.count))
        return "  " + line + "\n  " + String(repeating: " ", count: offset) + "^"
    }
}
