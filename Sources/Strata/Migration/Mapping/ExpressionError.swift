/// A problem inside one mapping expression: the column in the expression's
/// text and what was expected. The loader turns it into a ``MappingIssue``
/// that also names the file, JSON path, line and column.
struct ExpressionError: Error, Hashable, Sendable {
    /// The 1-based column, in characters, inside the expression.
    var column: Int
    /// What was found and what was expected.
    var message: String
}
