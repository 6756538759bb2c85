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

/// Little-endian fields out of a byte array, bounds-checked.
struct ZipFields {
    let bytes: [UInt8]
    var position = 0

    init(_ bytes: [UInt8], at position: Int = 0) {
        self.bytes = bytes
        self.position = position
    }

    /// Whether `count` more bytes are there.
    func has(_ count: Int) -> Bool { position + count <= bytes.count }

    /// The next 2 bytes; 0 past the end (callers check `has` first).
    mutating func uint16() -> UInt16 {
        guard has(2) else { return 0 }
        defer { position += 2 }
        return UInt16(bytes[position]) | UInt16(bytes[position + 1]) << 8
    }

    /// The next 4 bytes; 0 past the end.
    mutating func uint32() -> UInt32 {
        guard has(4) else { return 0 }
        var value: UInt32 = 0
        for index in 0..<4 { value |= UInt32(bytes[position + index]) << (8 * index) }
        position += 4
        return value
    }

    /// The next 8 bytes; 0 past the end.
    mutating func uint64() -> UInt64 {
        guard has(8) else { return 0 }
        var value: UInt64 = 0
        for index in 0..<8 { value |= UInt64(bytes[position + index]) << (8 * index) }
        position += 8
        return value
    }

    /// The next `count` bytes; fewer past the end.
    mutating func take(_ count: Int) -> [UInt8] {
        let end = min(bytes.count, position + count)
        defer { position = end }
        return Array(bytes[position..<end])
    }
}
