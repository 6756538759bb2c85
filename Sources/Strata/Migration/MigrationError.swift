/// A migration that cannot be planned or run, with the reason.
///
/// Its `description` starts with `migration error:`, then the message.
public struct MigrationError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The kinds of migration errors.
    public enum Code: String, Hashable, Sendable {
        /// A version that the schema chain does not have.
        case unknownVersion
        /// A plan from a newer version to an older one.
        case downgrade
    }

    /// What went wrong, as a kind.
    public var code: Code
    /// What went wrong, in a sentence that names the versions involved.
    public var message: String

    /// Creates an error.
    public init(_ code: Code, message: String) {
        self.code = code
        self.message = message
    }

    /// `migration error: <message>`.
    public var description: String { "migration error: \(message)" }
}

extension MigrationError.Code {
    /// Lets callers write `catch MigrationError.Code.downgrade`.
    public static func ~= (pattern: MigrationError.Code, error: any Error) -> Bool {
        (error as? MigrationError)?.code == pattern
    }
}
