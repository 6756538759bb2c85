/// A bundle that cannot be unarchived, naming the zip, the entry and (for a
/// data line) the line, and what was expected. Nothing is written when one
/// is thrown.
///
/// ```
/// diary.zip: entry "data/Medium.jsonl" line 3: 'type': expected text, found number 2
/// ```
///
/// ```swift
/// do {
///     _ = try BundleUnarchiver(bundle: bundleURL).unarchive(to: restoredURL)
/// } catch BundleError.checksumMismatch {
///     print("the bundle was changed after it was written")
/// }
/// ```
public struct BundleError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What kind of problem it is.
    public enum Code: String, Hashable, Sendable {
        /// `manifest.json` or `schema.json` is missing, or is not what a
        /// `strata-bundle/1` holds.
        case notABundle
        /// The zip and the manifest disagree: an entry the manifest does not
        /// list, a listed file the zip lacks, a different size, a name a
        /// bundle never has.
        case manifestMismatch
        /// A file's SHA-256 differs from the manifest's.
        case checksumMismatch
        /// A data line that does not fit the schema.
        case invalidData
        /// The bundle's schema version is newer than the schemas know, or
        /// differs from the version of that number the schemas have.
        case versionMismatch
        /// The target store exists (and merging was not asked for).
        case alreadyExists
    }

    /// What kind of problem it is.
    public var code: Code
    /// The zip's path as given.
    public var path: String
    /// The entry at fault, if one is.
    public var entry: String?
    /// The line of a data file, from 1.
    public var line: Int?
    /// What was found and what was expected.
    public var message: String

    /// Creates an error.
    public init(
        _ code: Code, path: String, entry: String? = nil, line: Int? = nil, _ message: String
    ) {
        self.code = code
        self.path = path
        self.entry = entry
        self.line = line
        self.message = message
    }

    /// `zip: entry "name" line N: message`.
    public var description: String {
        var text = path
        if let entry { text += ": entry \"\(entry)\"" }
        if let line { text += " line \(line)" }
        return text + ": " + message
    }
}

extension BundleError {
    /// A file of the bundle whose SHA-256 differs from the manifest's.
    static func damaged(path: String, entry: String) -> BundleError {
        BundleError(
            .checksumMismatch, path: path, entry: entry,
            "its SHA-256 differs from the manifest's: the file is damaged or was changed")
    }
}

// MARK: - Matching

extension BundleError {
    /// Matches an error of code ``Code/notABundle``: `catch BundleError.notABundle`.
    public static let notABundle = Code.notABundle
    /// Matches an error of code ``Code/manifestMismatch``: `catch BundleError.manifestMismatch`.
    public static let manifestMismatch = Code.manifestMismatch
    /// Matches an error of code ``Code/checksumMismatch``: `catch BundleError.checksumMismatch`.
    public static let checksumMismatch = Code.checksumMismatch
    /// Matches an error of code ``Code/invalidData``: `catch BundleError.invalidData`.
    public static let invalidData = Code.invalidData
    /// Matches an error of code ``Code/versionMismatch``: `catch BundleError.versionMismatch`.
    public static let versionMismatch = Code.versionMismatch
    /// Matches an error of code ``Code/alreadyExists``: `catch BundleError.alreadyExists`.
    public static let alreadyExists = Code.alreadyExists
}

extension BundleError.Code {
    /// Whether `error` is a ``BundleError`` of this code, so that
    /// `catch BundleError.notABundle` (or `case BundleError.notABundle`) compiles.
    public static func ~= (pattern: BundleError.Code, error: any Error) -> Bool {
        (error as? BundleError)?.code == pattern
    }
}
