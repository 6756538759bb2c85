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
        /// A store whose hashes match no version of the schema chain.
        case unknownStoreVersion
        /// A store written by a newer version than the chain's newest.
        case newerThanSchemas
        /// Lossy or needs-mapping steps that nothing resolves, or a failed
        /// data-aware preflight: refused before anything is written.
        case preflightFailed
        /// A mapping file that is missing a part, does not parse or does not
        /// fit the schemas.
        case invalidMapping
        /// A step whose result fails the checks run after it (dangling keys,
        /// missing required values); the step was rolled back.
        case verificationFailed
        /// A backup or work file that is in the way.
        case fileInTheWay
        /// The store's migration journal (`StrataMigrationJournal`) is not
        /// one Strata wrote: a malformed field, or a backup name that is not
        /// Strata's own for this store.
        case invalidJournal
        /// The store's tables do not match the version its metadata claims
        /// (a column or table missing, or one of a later version present).
        case structureMismatch
        /// Another connection wrote to the store while a stage worked on
        /// its copy; the stage was not applied.
        case concurrentWrite
        /// SQLite failed while the migrator read or wrote the store (a
        /// damaged page, a full disk); the message names the store, what the
        /// migrator was doing and SQLite's own error.
        case storeFailure
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
