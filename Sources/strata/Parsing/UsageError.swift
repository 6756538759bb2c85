/// A mistake in how the command was called; it exits with 64 (`EX_USAGE`)
/// and prints the usage of the command that was called.
struct UsageError: Error, CustomStringConvertible {
    /// What was wrong.
    let message: String
    /// The usage text of the command that was called.
    let usage: String

    init(_ message: String, command: any Command.Type) {
        self.message = message
        self.usage = command.usage
    }

    var description: String { message }
}
