/// An error about a store file: it is missing, not a Core Data store, of an
/// unknown version, or cannot be written.
///
/// The description always starts with the store's path, so a message on its
/// own tells which file is at fault:
///
/// ```
/// Diary.sqlite: not a Core Data store (no Z_METADATA table)
/// ```
///
/// ```swift
/// do {
///     _ = try Store.open(at: url)
/// } catch StoreError.notFound {
///     print("no store yet")
/// }
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

// MARK: - Matching

extension StoreError {
    /// Matches an error of code ``Code/notFound``: `catch StoreError.notFound`.
    public static let notFound = Code.notFound
    /// Matches an error of code ``Code/alreadyExists``: `catch StoreError.alreadyExists`.
    public static let alreadyExists = Code.alreadyExists
    /// Matches an error of code ``Code/notADatabase``: `catch StoreError.notADatabase`.
    public static let notADatabase = Code.notADatabase
    /// Matches an error of code ``Code/notCoreDataStore``: `catch StoreError.notCoreDataStore`.
    public static let notCoreDataStore = Code.notCoreDataStore
    /// Matches an error of code ``Code/corruptMetadata``: `catch StoreError.corruptMetadata`.
    public static let corruptMetadata = Code.corruptMetadata
    /// Matches an error of code ``Code/unknownVersion``: `catch StoreError.unknownVersion`.
    public static let unknownVersion = Code.unknownVersion
    /// Matches an error of code ``Code/noModel``: `catch StoreError.noModel`.
    public static let noModel = Code.noModel
    /// Matches an error of code ``Code/unsupportedFeature``: `catch StoreError.unsupportedFeature`.
    public static let unsupportedFeature = Code.unsupportedFeature
    /// Matches an error of code ``Code/schemaMismatch``: `catch StoreError.schemaMismatch`.
    public static let schemaMismatch = Code.schemaMismatch
    /// Matches an error of code ``Code/locked``: `catch StoreError.locked`.
    public static let locked = Code.locked
    /// Matches an error of code ``Code/versionChanged``: `catch StoreError.versionChanged`.
    public static let versionChanged = Code.versionChanged
    /// Matches an error of code ``Code/readOnly``: `catch StoreError.readOnly`.
    public static let readOnly = Code.readOnly
}

extension StoreError.Code {
    /// Whether `error` is a ``StoreError`` of this code, so that
    /// `catch StoreError.notFound` (or `case StoreError.notFound`) compiles.
    public static func ~= (pattern: StoreError.Code, error: any Error) -> Bool {
        (error as? StoreError)?.code == pattern
    }
}
