import StrataQuery

/// One problem in a mapping file: where it is and what was expected.
///
/// `path` is a JSON path into the file, such as
/// `$.entities.DiaryEntry.attributes.title`. For a problem inside an
/// expression or a `where` predicate, `expressionColumn` is the column (in
/// characters, from 1) inside that text, and `expression` the text itself.
public struct MappingIssue: Hashable, Sendable, CustomStringConvertible {
    /// The file, as the caller named it.
    public var file: String
    /// The JSON path of the offending value, key or object.
    public var path: String
    /// The line of the offending value in the file, when known.
    public var line: Int?
    /// The column of the offending value in the file, when known.
    public var column: Int?
    /// The column inside the expression or predicate, when the problem is
    /// inside one.
    public var expressionColumn: Int?
    /// The expression or predicate text, when the problem is inside one.
    public var expression: String?
    /// What was found and what was expected.
    public var message: String

    /// Creates an issue.
    public init(
        file: String, path: String, line: Int? = nil, column: Int? = nil,
        expressionColumn: Int? = nil, expression: String? = nil, message: String
    ) {
        self.file = file
        self.path = path
        self.line = line
        self.column = column
        self.expressionColumn = expressionColumn
        self.expression = expression
        self.message = message
    }

    /// `<file>:<line>:<column>: <path>: [column <n> of the expression: ]<message>`,
    /// then, for an expression, the expression and a caret under the column
    /// on two indented lines.
    public var description: String {
        let place = line.map { "\(file):\($0):\(column ?? 1)" } ?? file
        guard let expressionColumn else { return "\(place): \(path): \(message)" }
        var text = "\(place): \(path): column \(expressionColumn) of the expression: \(message)"
        if let expression {
            text += "\n" + PredicateSyntaxError.pointer(expression, column: expressionColumn)
        }
        return text
    }
}
