/// A failure the command has already explained on stdout (as JSON, say);
/// it exits with 1 after one line on stderr.
struct CommandFailure: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}
