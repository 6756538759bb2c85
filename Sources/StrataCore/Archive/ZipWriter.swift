import CArchive
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// libarchive's `struct archive *`.
typealias ArchiveHandle = OpaquePointer

/// Writes a zip archive entry by entry through libarchive (loaded on the
/// first archive, see `CArchive.h`), streaming: memory does not grow with
/// the size of entries, and grows with their number only by what the
/// central directory needs (about 100 bytes and the name per
/// entry, kept until ``finish()`` writes the directory).
///
/// The output is deterministic: the same calls give the same bytes. Every
/// entry has the DOS time 1980-01-01 00:00 (the zip format's earliest, in any
/// time zone: no modification time is recorded), mode 0644, uid and gid 0,
/// its name flagged as UTF-8, and entries stay in the order they are added
/// (callers sort them). Names follow the rules ``ZipReader`` checks; a name
/// it would refuse, or a duplicate, is refused here.
///
/// What libarchive writes: every entry has a data descriptor after its data
/// (general-purpose flag bit 3) with the CRC-32 and sizes; an entry added
/// with a known size (``add(path:bytes:compression:)``,
/// ``add(path:contentsOf:compression:)``) has a plain 32-bit descriptor
/// unless it is over 4 GiB, an entry streamed from a closure has zip64
/// sizes. Info-ZIP `unzip`, Python's `zipfile` and macOS read all of them.
///
/// Write to a temporary file and link it into place, or let
/// ``write(to:replacing:_:)`` do that:
///
/// ```swift
/// try ZipWriter.write(to: url) { zip in
///     try zip.add(path: "README.txt", bytes: Data("hello".utf8))
///     try zip.add(path: "media/photo.jpg", contentsOf: photoURL, compression: .stored)
/// }
/// ```
public final class ZipWriter {
    /// The file being written, as the caller gave it.
    public let path: String
    /// Bytes read from a file or gathered from a closure per libarchive call.
    static let chunkSize = 256 * 1024

    let handle: ArchiveHandle
    private var descriptor: Int32
    var names = ZipNameSet()
    var failed: ArchiveError?
    var finished = false

    /// Creates the file (it must not exist) and starts the archive.
    ///
    /// - Parameters:
    ///   - url: Where to write; usually a temporary name beside the final
    ///     one.
    ///   - deflateLevel: zlib's level for ``ZipCompression/deflated``
    ///     entries, 1 (fastest) … 9 (smallest); 6 by default.
    /// - Throws: ``ArchiveError`` `alreadyExists` when a file is there, `io`
    ///   when it cannot be created.
    public init(creatingAt url: URL, deflateLevel: Int = 6) throws {
        precondition((1...9).contains(deflateLevel), "ZipWriter: deflateLevel must be 1...9")
        path = url.path
        descriptor = Glibc.open(url.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            let code = errno
            throw ArchiveError(
                code == EEXIST ? .alreadyExists : .io, path: url.path,
                message: "cannot create the archive: \(String(cString: strerror(code)))")
        }
        guard let handle = strata_archive_write_new() else {
            Glibc.close(descriptor)
            Glibc.unlink(url.path)  // Created empty above; nothing was written.
            let reason = strata_archive_load_error().map { String(cString: $0) }
            throw ArchiveError(
                .library, path: url.path, message: reason ?? "libarchive is out of memory")
        }
        self.handle = handle
        do {
            try check(strata_archive_write_set_format_zip(handle))
            // Names as UTF-8 with flag bit 11, whatever the process's locale.
            try check(strata_archive_write_set_format_option(handle, "zip", "hdrcharset", "UTF-8"))
            try check(
                strata_archive_write_set_format_option(
                    handle, "zip", "compression-level", String(deflateLevel)))
            // No padding after the end record.
            try check(strata_archive_write_set_bytes_in_last_block(handle, 1))
            try check(strata_archive_write_open_fd(handle, descriptor))
        } catch {
            strata_archive_write_free(handle)
            Glibc.close(descriptor)
            throw error
        }
    }

    deinit {
        // A writer dropped without finish() leaves an unfinished file, which
        // write(to:) removes; free the handle without writing the directory.
        if !finished {
            strata_archive_write_fail(handle)
        }
        strata_archive_write_free(handle)  // Any error here was reported by finish().
        if descriptor >= 0 { Glibc.close(descriptor) }
    }

    // MARK: - Entries

    /// Adds an entry holding `bytes`.
    ///
    /// - Parameters:
    ///   - path: The entry's name: relative, `/`-separated, no `..`.
    ///   - bytes: The content.
    ///   - compression: ``ZipCompression/deflated`` by default.
    /// - Throws: ``ArchiveError`` for a refused name or a write failure.
    public func add(path: String, bytes: Data, compression: ZipCompression = .deflated) throws {
        try begin(path: path, size: Int64(bytes.count), compression: compression)
        try bytes.withUnsafeBytes { try write($0, entry: path) }
        try end(path: path)
    }

    /// Adds an entry holding a file's bytes, read in chunks.
    ///
    /// - Parameters:
    ///   - path: The entry's name.
    ///   - fileURL: The file to copy; it must not change while it is read.
    ///   - compression: ``ZipCompression/deflated`` by default.
    /// - Throws: ``ArchiveError`` for a refused name, a file that cannot be
    ///   read or whose size changes while it is read, or a write failure.
    public func add(path: String, contentsOf fileURL: URL, compression: ZipCompression = .deflated)
        throws
    {
        let source = Glibc.open(fileURL.path, O_RDONLY | O_CLOEXEC)
        guard source >= 0 else {
            throw ArchiveError(
                .io, path: fileURL.path, entry: path,
                message: "cannot open: \(String(cString: strerror(errno)))")
        }
        defer { Glibc.close(source) }
        var info = stat()
        guard fstat(source, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            throw ArchiveError(.io, path: fileURL.path, entry: path, message: "not a regular file")
        }
        let size = Int64(info.st_size)
        try begin(path: path, size: size, compression: compression)
        let buffer = UnsafeMutableRawBufferPointer.allocate(
            byteCount: Self.chunkSize, alignment: 16)
        defer { buffer.deallocate() }
        var copied: Int64 = 0
        while true {
            guard let base = buffer.baseAddress else { break }
            let got = Glibc.read(source, base, buffer.count)
            if got < 0 {
                if errno == EINTR { continue }
                throw fail(
                    ArchiveError(
                        .io, path: fileURL.path, entry: path,
                        message: "cannot read: \(String(cString: strerror(errno)))"))
            }
            if got == 0 { break }
            copied += Int64(got)
            // libarchive silently drops bytes past the declared size.
            guard copied <= size else { break }
            try write(UnsafeRawBufferPointer(rebasing: buffer[0..<got]), entry: path)
        }
        guard copied == size else {
            throw fail(
                ArchiveError(
                    .io, path: fileURL.path, entry: path,
                    message: "the file changed size while it was read (\(size) → \(copied) bytes)"))
        }
        try end(path: path)
    }

    /// Adds an entry whose bytes a closure produces, for content made on the
    /// fly (a JSON Lines file written record by record).
    ///
    /// ```swift
    /// try zip.add(path: "data/Entry.jsonl") { sink in
    ///     for line in ["{\"a\":1}\n", "{\"a\":2}\n"] {
    ///         try sink.write(line)
    ///     }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - path: The entry's name.
    ///   - compression: ``ZipCompression/deflated`` by default.
    ///   - inBackground: Whether the chunks are compressed and written on a
    ///     second thread while `body` makes the next ones — worth it for a
    ///     large entry whose bytes cost time to make (at most a few chunks
    ///     wait, so memory stays bounded); off by default.
    ///   - body: Writes the content to the sink, which buffers it in chunks;
    ///     the sink is valid only during the call.
    /// - Throws: ``ArchiveError`` for a refused name or a write failure, or
    ///   what `body` throws (the archive is then unusable).
    public func add(
        path: String, compression: ZipCompression = .deflated, inBackground: Bool = false,
        writing body: (ZipEntrySink) throws -> Void
    ) throws {
        try begin(path: path, size: nil, compression: compression)
        let sink = ZipEntrySink(capacity: Self.chunkSize, inBackground: inBackground) { chunk in
            try self.write(chunk, entry: path)
        }
        do {
            try body(sink)
            try sink.close()
        } catch {
            sink.abandon()
            if failed == nil {
                failed = ArchiveError(
                    .io, path: self.path, entry: path,
                    message: "the entry's content failed: \(error)")
            }
            throw error
        }
        try end(path: path)
    }

    /// Adds an entry made of a sequence of chunks.
    ///
    /// - Parameters:
    ///   - path: The entry's name.
    ///   - compression: ``ZipCompression/deflated`` by default.
    ///   - chunks: The content, in order.
    /// - Throws: ``ArchiveError`` for a refused name or a write failure.
    public func add<Chunks: Sequence>(
        path: String, compression: ZipCompression = .deflated, chunks: Chunks
    ) throws where Chunks.Element == Data {
        try add(path: path, compression: compression) { sink in
            for chunk in chunks { try sink.write(chunk) }
        }
    }

    /// Writes the central directory and flushes the file to disk.
    ///
    /// - Throws: ``ArchiveError`` when libarchive or the disk fails.
    public func finish() throws {
        try usable()
        finished = true
        try check(strata_archive_write_close(handle))
        if fsync(descriptor) != 0 {
            throw ArchiveError(
                .io, path: path, message: "cannot flush: \(String(cString: strerror(errno)))")
        }
        let code = Glibc.close(descriptor)
        descriptor = -1
        guard code == 0 else {
            throw ArchiveError(
                .io, path: path, message: "cannot close: \(String(cString: strerror(errno)))")
        }
    }
}
