import Foundation

/// Reads a zip archive entry by entry, streaming each entry's bytes, with
/// every safety check a bundle or an import needs.
///
/// Opening the reader reads the whole central directory (the table of
/// contents Info-ZIP `unzip` and Python's `zipfile` use) and refuses, before
/// any bytes are read, an archive with unsafe names (absolute, `..`,
/// backslashes, drive letters, empty), links, devices, duplicate names,
/// entries that share or overlap their data, or sizes beyond ``ZipLimits``.
/// Reading an entry then checks its local header against the directory, that
/// it inflates to exactly its declared size, and its CRC-32.
///
/// Memory holds the list of entries (bounded by ``ZipLimits/maxEntries``)
/// and one buffer; it does not grow with entry sizes.
///
/// ``read(_:_:)``, ``data(of:limit:)`` and ``entry(named:)`` keep no state
/// between calls (each read has its own buffers; the file is read with
/// `pread`), so several threads may call them on one reader at once;
/// ``next()`` and ``readCurrent(_:)`` keep a cursor and may not.
///
/// Why not libarchive's zip reader: in streaming mode it trusts the local
/// headers, which a hostile archive can make disagree with the central
/// directory that `unzip`, Python and macOS show (an entry one tool sees and
/// another does not); in seekable mode it reads the directory but exposes
/// neither compressed sizes nor offsets nor the raw name bytes, so ratio
/// bombs, entries sharing or overlapping their data, and local names that
/// differ cannot be caught through it. This reader parses the directory
/// itself, checks each local header against it, and inflates with zlib.
///
/// ```swift
/// let reader = try ZipReader(contentsOf: url)
/// while let entry = try reader.next() {
///     var bytes = 0
///     try reader.readCurrent { chunk in bytes += chunk.count }
///     print(entry.path, bytes)
/// }
/// ```
public final class ZipReader {
    /// The archive's path as the caller gave it.
    public let path: String
    /// The limits the archive was checked against.
    public let limits: ZipLimits
    /// Every entry, in the central directory's order.
    public let entries: [ZipEntry]

    let file: ZipInputFile
    private var cursor = 0
    private var current: ZipEntry?
    private let index: [String: Int]

    /// Opens an archive and checks its table of contents.
    ///
    /// - Parameters:
    ///   - url: The zip file.
    ///   - limits: The bounds on entry count and sizes.
    /// - Throws: ``ArchiveError`` naming the entry at fault.
    public init(contentsOf url: URL, limits: ZipLimits = ZipLimits()) throws {
        path = url.path
        self.limits = limits
        file = try ZipInputFile(path: url.path)
        entries = try ZipCentralDirectory.entries(of: file, limits: limits)
        var index: [String: Int] = [:]
        for entry in entries { index[entry.path] = entry.index }
        self.index = index
    }

    /// The entry of a name, as ``ZipEntry/path`` spells it (folders end
    /// with `/`), or `nil`.
    public func entry(named name: String) -> ZipEntry? {
        index[name].map { entries[$0] }
    }

    /// Moves to the next entry.
    ///
    /// - Returns: The entry, or `nil` after the last one.
    public func next() throws -> ZipEntry? {
        guard cursor < entries.count else {
            current = nil
            return nil
        }
        defer { cursor += 1 }
        current = entries[cursor]
        return current
    }

    /// Streams the bytes of the entry ``next()`` returned last.
    ///
    /// - Parameter body: Called with each chunk of inflated bytes; a chunk
    ///   is valid only during the call.
    /// - Throws: ``ArchiveError`` (`sizeMismatch`, `checksumMismatch`,
    ///   `corrupt`, `truncated`) naming the entry, or what `body` throws.
    public func readCurrent(_ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        guard let current else {
            preconditionFailure("ZipReader.readCurrent: call next() first")
        }
        try read(current, body)
    }

    /// Streams the bytes of any entry of this archive.
    ///
    /// The bytes reach `body` before the CRC-32 can be checked: a caller that
    /// writes them somewhere must discard them when this throws (as
    /// ``ZipExtraction`` does).
    ///
    /// - Parameters:
    ///   - entry: One of ``entries``.
    ///   - checksCRC: Whether the CRC-32 is checked. Pass `false` only when
    ///     the caller checks a stronger digest of the same bytes (a bundle's
    ///     SHA-256): the CRC then costs time and proves nothing more. The
    ///     size is checked either way.
    ///   - body: Called with each chunk of inflated bytes; a chunk is valid
    ///     only during the call.
    /// - Throws: ``ArchiveError`` naming the entry, or what `body` throws.
    public func read(
        _ entry: ZipEntry, checksCRC: Bool = true, _ body: (UnsafeRawBufferPointer) throws -> Void
    ) throws {
        precondition(
            entries.indices.contains(entry.index) && entries[entry.index] == entry,
            "ZipReader.read: the entry belongs to another archive")
        try ZipEntryInput(entry: entry, file: file).stream(checksCRC: checksCRC, body)
    }

    /// The bytes of a small entry (a manifest, a schema), all at once.
    ///
    /// - Parameters:
    ///   - entry: One of ``entries``.
    ///   - limit: The most bytes accepted.
    /// - Throws: ``ArchiveError/Code/entryTooLarge`` when the entry declares
    ///   more than `limit`, or an error of ``read(_:_:)``.
    public func data(of entry: ZipEntry, limit: Int = 64 << 20) throws -> Data {
        guard entry.size <= Int64(limit) else {
            throw ArchiveError(
                .entryTooLarge, path: path, entry: entry.path,
                message: "the entry declares \(entry.size) bytes; at most \(limit) are read whole")
        }
        var data = Data(capacity: Int(entry.size))
        try read(entry) { data.append(contentsOf: $0) }
        return data
    }
}
