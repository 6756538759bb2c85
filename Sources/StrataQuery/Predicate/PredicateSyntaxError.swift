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
    /// under `column` on the next, both indented by two spaces. A predicate
    /// longer than ``pointerWidth`` characters is cut to the part around the
    /// column, with `…` where text is left out.
    package static func pointer(_ predicate: String, column: Int) -> String {
        let line = predicate.map { $0.isNewline ? " " : $0 }
        var offset = max(0, min(column - 1, line.count))
        var shown = line
        if line.count > pointerWidth {
            let start = max(0, min(offset - pointerWidth / 2, line.count - pointerWidth))
            let end = min(line.count, start + pointerWidth)
            shown = (start > 0 ? ["…"] : []) + line[start..<end] + (end < line.count ? ["…"] : [])
            offset -= start - (start > 0 ? 1 : 0)
        }
        return "  " + String(shown) + "\n  " + String(repeating: " ", count: offset) + "^"
    }

    /// The most characters of a predicate an error shows.
    static let pointerWidth = 100
}
