/// One entry of a zip archive, as its central directory lists it.
///
/// Only files and folders are ever returned: a ``ZipReader`` refuses links,
/// devices and unsafe names when it opens the archive.
public struct ZipEntry: Hashable, Sendable {
    /// Whether the entry is a file or a folder.
    public enum Kind: Sendable, Hashable {
        /// A regular file.
        case file
        /// A folder (its name ends with `/`); it has no bytes.
        case directory
    }

    /// The name in the archive: `/`-separated, relative, without `..`,
    /// folders ending with `/`.
    public let path: String
    /// A file or a folder.
    public let kind: Kind
    /// The inflated size the archive declares; reading checks it exactly.
    public let size: Int64
    /// The size of the stored or deflated bytes in the archive.
    public let compressedSize: Int64
    /// How the bytes are kept.
    public let compression: ZipCompression
    /// The CRC-32 of the inflated bytes, as the archive declares it.
    public let crc32: UInt32
    /// The entry's position in the central directory, from 0.
    public let index: Int

    /// Where the entry's local header starts in the archive file.
    let headerOffset: Int64
    /// The name's bytes as stored when they differ from `path` (`./`,
    /// `//`); `nil` in the usual case, to keep 100,000 entries small.
    let storedName: [UInt8]?
    /// The general-purpose flags (bit 3: sizes in a data descriptor).
    let flags: UInt16
    /// The offset the entry's data must end before: the next entry's local
    /// header, or the central directory.
    let dataLimit: Int64

    /// The same entry with its data limit set.
    func bounded(by limit: Int64) -> ZipEntry {
        ZipEntry(
            path: path, kind: kind, size: size, compressedSize: compressedSize,
            compression: compression, crc32: crc32, index: index, headerOffset: headerOffset,
            storedName: storedName, flags: flags, dataLimit: limit)
    }

    /// The name's bytes as stored, compared with the local header's.
    var rawName: [UInt8] { storedName ?? Array(path.utf8) }
}
