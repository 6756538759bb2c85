/// Why an archived `NSExpression` could not become an ``ExpressionNode``:
/// a class the reader does not know, a missing key, a tree too deep or too
/// large (a cyclic archive ends here too).
///
/// ```
/// $objects[7] (NSSubqueryExpression): unsupported expression class; expected …
/// ```
public struct ArchivedExpressionError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The index in `$objects` of the expression being read.
    public var objectIndex: Int
    /// Its class (`$classname`).
    public var className: String
    /// What is wrong and what was expected.
    public var message: String

    /// Creates an error.
    public init(objectIndex: Int, className: String, message: String) {
        self.objectIndex = objectIndex
        self.className = className
        self.message = message
    }

    /// `$objects[<index>] (<class>): <message>`.
    public var description: String {
        "$objects[\(objectIndex)] (\(className)): \(message)"
    }
}
