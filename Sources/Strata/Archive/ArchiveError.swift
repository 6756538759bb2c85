/// An error reading, writing or extracting a zip archive.
///
/// The description starts with the archive's path and, when one entry is at
/// fault, that entry's name, so a message on its own says where to look:
///
/// ```
/// diary.zip: entry "../etc/passwd": the name climbs out of the folder ("..")
/// ```
///
/// Callers that react to one kind of error match its code:
///
/// ```swift
/// do {
///     _ = try ZipReader(contentsOf: url)
/// } catch let error as ArchiveError where error.code == .symlink {
///     print("links are not allowed in a bundle: \(error)")
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

extension ArchiveError.Code {
    /// Lets callers test an error of any type:
    /// `if ArchiveError.Code.symlink ~= error { … }`.
    public static func ~= (pattern: ArchiveError.Code, error: any Error) -> Bool {
        (error as? ArchiveError)?.code == pattern
    }
}
