/// An error reading, writing or extracting a zip archive.
///
/// The description starts with the archive's path and, when one entry is at
/// fault, that entry's name, so a message on its own says where to look:
///
/// ```
/// diary.zip: entry "../etc/passwd": the name climbs out of the folder ("..")
/// ```
///
/// Callers that react to one kind of error match its code (`let error as`
/// gives the error too):
///
/// ```swift
/// do {
///     _ = try ZipReader(contentsOf: url)
/// } catch ArchiveError.symlink {
///     print("links are not allowed in a bundle")
/// } catch let error as ArchiveError where error.code == .hardLink {
///     print(error)
/// }
/// ```
public struct ArchiveError: Error, CustomStringConvertible, Sendable {
    /// The kinds of archive error.
    public enum Code: String, Sendable {
        /// The name is empty, too long, not valid UTF-8 (when flagged so), or
        /// holds control characters, a backslash or a drive letter.
        case invalidName
        /// The name starts with `/`.
        case absolutePath
        /// The name has a `..` component.
        case parentReference
        /// Two entries have the same name once normalised (`./` and empty
        /// components removed, Unicode NFC, case folded).
        case duplicateName
        /// The entry is a symbolic link.
        case symlink
        /// The entry shares its data with another entry (a zip's form of a
        /// hard link).
        case hardLink
        /// The entry is a device, FIFO or socket.
        case specialFile
        /// The entry's data overlaps another entry's or the central directory.
        case overlappingEntries
        /// The archive has more entries than ``ZipLimits/maxEntries``.
        case tooManyEntries
        /// The entry's declared or inflated size exceeds
        /// ``ZipLimits/maxEntrySize``, or its inflated bytes differ from the
        /// size it declares.
        case entryTooLarge
        /// The entry's sizes claim a compression ratio beyond
        /// ``ZipLimits/maxCompressionRatio``.
        case compressionRatio
        /// The entries together inflate beyond ``ZipLimits/maxTotalSize``.
        case totalTooLarge
        /// The inflated bytes do not match the entry's CRC-32.
        case checksumMismatch
        /// The entry's inflated size differs from the size it declares.
        case sizeMismatch
        /// The archive ends early.
        case truncated
        /// The archive's structure or an entry's compressed data is corrupt.
        case corrupt
        /// An encrypted entry, a compression method other than stored or
        /// deflated, or a multi-disk archive.
        case unsupported
        /// A file already exists where extraction or writing would put one.
        case alreadyExists
        /// An extraction target is a symlink or not a folder.
        case unsafeTarget
        /// A file cannot be opened, read or written.
        case io
        /// libarchive or zlib reported a failure while writing.
        case library
    }

    /// What kind of error this is.
    public var code: Code
    /// The archive's path (or the extraction folder's), as the caller gave it.
    public var path: String
    /// The entry at fault, when there is one.
    public var entry: String?
    /// What is wrong and, where it helps, what was expected.
    public var message: String

    /// Creates an archive error.
    public init(_ code: Code, path: String, entry: String? = nil, message: String) {
        self.code = code
        self.path = path
        self.entry = entry
        self.message = message
    }

    /// `<path>: entry "<name>": <message>`, or `<path>: <message>` when no
    /// entry is at fault. Control characters in the name are escaped.
    public var description: String {
        guard let entry else { return "\(path): \(message)" }
        return "\(path): entry \(ArchiveError.quoted(entry)): \(message)"
    }

    /// The name in double quotes, with control characters and quotes escaped
    /// so a hostile name cannot drive the terminal.
    static func quoted(_ name: String) -> String {
        var result = "\""
        for scalar in name.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case _ where scalar.value < 0x20 || (0x7f...0x9f).contains(scalar.value):
                result += "\\u{\(String(scalar.value, radix: 16))}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}

// MARK: - Matching

extension ArchiveError {
    /// Matches an error of code ``Code/invalidName``: `catch ArchiveError.invalidName`.
    public static let invalidName = Code.invalidName
    /// Matches an error of code ``Code/absolutePath``: `catch ArchiveError.absolutePath`.
    public static let absolutePath = Code.absolutePath
    /// Matches an error of code ``Code/parentReference``: `catch ArchiveError.parentReference`.
    public static let parentReference = Code.parentReference
    /// Matches an error of code ``Code/duplicateName``: `catch ArchiveError.duplicateName`.
    public static let duplicateName = Code.duplicateName
    /// Matches an error of code ``Code/symlink``: `catch ArchiveError.symlink`.
    public static let symlink = Code.symlink
    /// Matches an error of code ``Code/hardLink``: `catch ArchiveError.hardLink`.
    public static let hardLink = Code.hardLink
    /// Matches an error of code ``Code/specialFile``: `catch ArchiveError.specialFile`.
    public static let specialFile = Code.specialFile
    /// Matches an error of code ``Code/overlappingEntries``: `catch ArchiveError.overlappingEntries`.
    public static let overlappingEntries = Code.overlappingEntries
    /// Matches an error of code ``Code/tooManyEntries``: `catch ArchiveError.tooManyEntries`.
    public static let tooManyEntries = Code.tooManyEntries
    /// Matches an error of code ``Code/entryTooLarge``: `catch ArchiveError.entryTooLarge`.
    public static let entryTooLarge = Code.entryTooLarge
    /// Matches an error of code ``Code/compressionRatio``: `catch ArchiveError.compressionRatio`.
    public static let compressionRatio = Code.compressionRatio
    /// Matches an error of code ``Code/totalTooLarge``: `catch ArchiveError.totalTooLarge`.
    public static let totalTooLarge = Code.totalTooLarge
    /// Matches an error of code ``Code/checksumMismatch``: `catch ArchiveError.checksumMismatch`.
    public static let checksumMismatch = Code.checksumMismatch
    /// Matches an error of code ``Code/sizeMismatch``: `catch ArchiveError.sizeMismatch`.
    public static let sizeMismatch = Code.sizeMismatch
    /// Matches an error of code ``Code/truncated``: `catch ArchiveError.truncated`.
    public static let truncated = Code.truncated
    /// Matches an error of code ``Code/corrupt``: `catch ArchiveError.corrupt`.
    public static let corrupt = Code.corrupt
    /// Matches an error of code ``Code/unsupported``: `catch ArchiveError.unsupported`.
    public static let unsupported = Code.unsupported
    /// Matches an error of code ``Code/alreadyExists``: `catch ArchiveError.alreadyExists`.
    public static let alreadyExists = Code.alreadyExists
    /// Matches an error of code ``Code/unsafeTarget``: `catch ArchiveError.unsafeTarget`.
    public static let unsafeTarget = Code.unsafeTarget
    /// Matches an error of code ``Code/io``: `catch ArchiveError.io`.
    public static let io = Code.io
    /// Matches an error of code ``Code/library``: `catch ArchiveError.library`.
    public static let library = Code.library
}

extension ArchiveError.Code {
    /// Whether `error` is a ``ArchiveError`` of this code, so that
    /// `catch ArchiveError.invalidName` (or `case ArchiveError.invalidName`) compiles.
    public static func ~= (pattern: ArchiveError.Code, error: any Error) -> Bool {
        (error as? ArchiveError)?.code == pattern
    }
}
