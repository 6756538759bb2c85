/// A migration that cannot be planned or run, with the reason.
///
/// Its `description` starts with `migration error:`, then the message.
///
/// ```swift
/// do {
///     _ = try MigrationPlan(chain: chain, from: 3, to: 1)
/// } catch MigrationError.downgrade {
///     print("a store is never migrated backwards")
/// }
/// ```
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

// MARK: - Matching

extension MigrationError {
    /// Matches an error of code ``Code/unknownVersion``: `catch MigrationError.unknownVersion`.
    public static let unknownVersion = Code.unknownVersion
    /// Matches an error of code ``Code/downgrade``: `catch MigrationError.downgrade`.
    public static let downgrade = Code.downgrade
    /// Matches an error of code ``Code/unknownStoreVersion``: `catch MigrationError.unknownStoreVersion`.
    public static let unknownStoreVersion = Code.unknownStoreVersion
    /// Matches an error of code ``Code/newerThanSchemas``: `catch MigrationError.newerThanSchemas`.
    public static let newerThanSchemas = Code.newerThanSchemas
    /// Matches an error of code ``Code/preflightFailed``: `catch MigrationError.preflightFailed`.
    public static let preflightFailed = Code.preflightFailed
    /// Matches an error of code ``Code/invalidMapping``: `catch MigrationError.invalidMapping`.
    public static let invalidMapping = Code.invalidMapping
    /// Matches an error of code ``Code/verificationFailed``: `catch MigrationError.verificationFailed`.
    public static let verificationFailed = Code.verificationFailed
    /// Matches an error of code ``Code/fileInTheWay``: `catch MigrationError.fileInTheWay`.
    public static let fileInTheWay = Code.fileInTheWay
    /// Matches an error of code ``Code/invalidJournal``: `catch MigrationError.invalidJournal`.
    public static let invalidJournal = Code.invalidJournal
    /// Matches an error of code ``Code/structureMismatch``: `catch MigrationError.structureMismatch`.
    public static let structureMismatch = Code.structureMismatch
    /// Matches an error of code ``Code/concurrentWrite``: `catch MigrationError.concurrentWrite`.
    public static let concurrentWrite = Code.concurrentWrite
    /// Matches an error of code ``Code/storeFailure``: `catch MigrationError.storeFailure`.
    public static let storeFailure = Code.storeFailure
}

extension MigrationError.Code {
    /// Whether `error` is a ``MigrationError`` of this code, so that
    /// `catch MigrationError.unknownVersion` (or `case MigrationError.unknownVersion`) compiles.
    public static func ~= (pattern: MigrationError.Code, error: any Error) -> Bool {
        (error as? MigrationError)?.code == pattern
    }
}
