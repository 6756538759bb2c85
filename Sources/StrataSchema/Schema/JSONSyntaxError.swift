/// Text that is not JSON: where the reader stopped and what it expected there.
///
/// ```swift
/// do { _ = try JSONReader.parse("{\"a\" 1}") }
/// catch { print(error) }  // 1:6: expected ':' after object key, found '1'
/// ```
public struct JSONSyntaxError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The line of the offending character, from 1.
    public var line: Int
    /// The column of the offending character, from 1, counted in Unicode scalars.
    public var column: Int
    /// What was expected and what was found instead.
    public var message: String
    /// What kind of problem it is, for readers that map it to their own
    /// error codes (the importer tells bad encoding from bad syntax).
    package var kind: Kind = .syntax

    /// What makes the text unacceptable.
    package enum Kind: Hashable, Sendable {
        /// Not JSON.
        case syntax
        /// Invalid UTF-8 in a string, or an unpaired `\u` surrogate escape.
        case encoding
        /// A number too large for a Double.
        case range
        /// Nesting deeper than ``JSONReader/maximumDepth``.
        case depth
    }

    /// Creates a syntax error.
    public init(line: Int, column: Int, message: String) {
        self.line = line
        self.column = column
        self.message = message
    }

    init(line: Int, column: Int, message: String, kind: Kind) {
        self.init(line: line, column: column, message: message)
        self.kind = kind
    }

    /// `<line>:<column>: <message>`.
    public var description: String { "\(line):\(column): \(message)" }
}
