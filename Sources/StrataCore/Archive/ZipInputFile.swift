import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A zip file open for reading at any offset (`pread(2)`), owning its
/// descriptor.
final class ZipInputFile {
    /// The path as the caller gave it, for errors.
    let path: String
    /// The file's size in bytes when it was opened.
    let size: Int64
    private let descriptor: Int32

    /// Opens the file read-only.
    ///
    /// - Throws: ``ArchiveError/Code/io`` when it cannot be opened or is not
    ///   a regular file.
    init(path: String) throws {
        self.path = path
        descriptor = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw ArchiveError(
                .io, path: path, message: "cannot open: \(String(cString: strerror(errno)))")
        }
        var info = stat()
        guard fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            Glibc.close(descriptor)
            throw ArchiveError(.io, path: path, message: "not a regular file")
        }
        size = Int64(info.st_size)
    }

    deinit {
        Glibc.close(descriptor)  // Read-only: nothing to lose if close reports an error.
    }

    /// Reads up to `count` bytes at `offset` into `buffer`, fewer only at the
    /// end of the file.
    ///
    /// - Returns: The number of bytes read.
    /// - Throws: ``ArchiveError/Code/io`` on a read error.
    func read(at offset: Int64, into buffer: UnsafeMutableRawBufferPointer, count: Int) throws
        -> Int
    {
        precondition(count <= buffer.count, "ZipInputFile.read: count beyond the buffer")
        var done = 0
        while done < count {
            guard let base = buffer.baseAddress else { return 0 }
            let got = pread(descriptor, base + done, count - done, off_t(offset + Int64(done)))
            if got < 0 {
                if errno == EINTR { continue }
                throw ArchiveError(
                    .io, path: path, message: "cannot read: \(String(cString: strerror(errno)))")
            }
            if got == 0 { break }
            done += got
        }
        return done
    }

    /// Reads exactly `count` bytes at `offset`.
    ///
    /// - Throws: ``ArchiveError/Code/truncated`` naming `entry` when the file
    ///   ends first.
    func bytes(at offset: Int64, count: Int, entry: String?, what: String) throws -> [UInt8] {
        guard offset >= 0, count >= 0, offset <= size, Int64(count) <= size - offset else {
            throw ArchiveError(
                .truncated, path: path, entry: entry,
                message: "the archive ends before the \(what) (\(count) bytes at \(offset))")
        }
        var result = [UInt8](repeating: 0, count: count)
        let got = try result.withUnsafeMutableBytes { try read(at: offset, into: $0, count: count) }
        guard got == count else {
            throw ArchiveError(
                .truncated, path: path, entry: entry,
                message: "the archive ends before the \(what) (\(count) bytes at \(offset))")
        }
        return result
    }
}
