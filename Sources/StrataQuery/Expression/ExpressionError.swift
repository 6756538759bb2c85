/// A problem inside one mapping expression: the column in the expression's
/// text and what was expected. The loader turns it into a ``MappingIssue``
/// that also names the file, JSON path, line and column.
package struct ExpressionError: Error, Hashable, Sendable {
    /// The 1-based column, in characters, inside the expression.
    package var column: Int
    /// What was found and what was expected.
    package var message: String

    /// Every stored property (the memberwise initializer, for the other layers).
    package init(column: Int, message: String) {
        self.column = column
        self.message = message
    }
}
