/// Seeding or opening a first-run store failed; nothing was left at the
/// store's place.
///
/// The description starts with the file at fault (the seed, the data
/// folder or the store), then what was expected.
public struct SeedingError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The kinds of seeding error.
    public enum Code: String, Hashable, Sendable {
        /// The seed is missing, unreadable, damaged, of another model or of
        /// a version the schemas do not know.
        case badSeed
        /// The data folder cannot be made or written.
        case unwritableFolder
        /// The schemas name no such model, or do not load.
        case badSchemas
        /// Building the store failed part-way; the half-built file was removed.
        case buildFailed
    }

    /// What kind of error this is.
    public var code: Code
    /// The file or folder at fault, as given.
    public var path: String
    /// What is wrong.
    public var message: String

    /// An error about the file or folder at `path`.
    public init(_ code: Code, path: String, _ message: String) {
        self.code = code
        self.path = path
        self.message = message
    }

    /// `<path>: <message>`.
    public var description: String { "\(path): \(message)" }
}
