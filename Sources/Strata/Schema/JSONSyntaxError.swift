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

    /// Creates a syntax error.
    public init(line: Int, column: Int, message: String) {
        self.line = line
        self.column = column
        self.message = message
    }

    /// `<line>:<column>: <message>`.
    public var description: String { "\(line):\(column): \(message)" }
}
