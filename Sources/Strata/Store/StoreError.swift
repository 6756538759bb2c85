/// An error about a store file: it is missing, not a Core Data store, of an
/// unknown version, or cannot be written.
///
/// The description always starts with the store's path, so a message on its
/// own tells which file is at fault:
///
/// ```
/// Diary.sqlite: not a Core Data store (no Z_METADATA table)
/// ```
public struct StoreError: Error, CustomStringConvertible, Sendable {
    /// The kinds of store error, for callers that react to one of them.
    public enum Code: String, Sendable {
        /// No file at the path.
        case notFound
        /// A file already exists where a new store was to be created.
        case alreadyExists
        /// The file is not an SQLite database.
        case notADatabase
        /// The file is an SQLite database without Core Data's tables.
        case notCoreDataStore
        /// Core Data's bookkeeping (`Z_METADATA`, `Z_PRIMARYKEY`) is unreadable.
        case corruptMetadata
        /// The store's hashes match no version of the schema chain.
        case unknownVersion
        /// The store names no model (no stored schema, no model cache) and
        /// the caller gave none.
        case noModel
        /// The store uses a Core Data feature Strata does not write.
        case unsupportedFeature
        /// The schema does not describe the store (an entity or table is missing).
        case schemaMismatch
        /// Another process holds the store's lock (``StoreLock``) past the
        /// wait, or the lock file cannot be made.
        case locked
        /// The store was changed to another model version (migrated) since
        /// this connection opened it; reopen it with that version's model.
        case versionChanged
        /// The store or its folder cannot be read or written as asked.
        case readOnly
    }

    /// What kind of error this is.
    public var code: Code
    /// The store's path as the caller gave it.
    public var path: String
    /// What is wrong and, where it helps, what was expected.
    public var message: String

    /// Creates a store error.
    public init(_ code: Code, path: String, message: String) {
        self.code = code
        self.path = path
        self.message = message
    }

    /// `<path>: <message>`.
    public var description: String { "\(path): \(message)" }
}

extension StoreError.Code {
    /// Lets callers write `catch StoreError.Code.unknownVersion`.
    public static func ~= (pattern: StoreError.Code, error: any Error) -> Bool {
        (error as? StoreError)?.code == pattern
    }
}
