/// Why ``HTTPServer`` could not start.
public struct HTTPServerError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong, for a person.
    public var message: String

    /// An error with `message`.
    public init(_ message: String) { self.message = message }

    /// The message.
    public var description: String { message }
}
