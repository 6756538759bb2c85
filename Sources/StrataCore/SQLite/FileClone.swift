import CFileSystem
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Copies a file the cheapest way the file system allows: a clone sharing
/// its blocks (`FICLONE` on btrfs and XFS: constant time, no data written),
/// else the kernel's in-place copy (`copy_file_range(2)`: no trip through
/// user space; a clone too on file systems that offer it to that call),
/// else reading and writing.
package enum FileClone {
    /// How a copy was made, from cheapest to dearest.
    package enum Method: Int, CaseIterable, Comparable, Sendable {
        /// The new file shares the old one's blocks (`FICLONE`).
        case clone
        /// The kernel copied the bytes (`copy_file_range(2)`).
        case kernelCopy
        /// The bytes went through a buffer (`read(2)`, `write(2)`).
        case readWrite

        /// Orders methods from cheapest to dearest.
        package static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// Copies the file at `source` to a new file at `destination` (which must
    /// not exist), with the source's permission bits, trying the methods from
    /// `first` on: each one the file system cannot do hands on to the next.
    /// The copy is not synced; a half-made copy is removed.
    ///
    /// The source must not change while it is copied (the caller holds a
    /// lock or a transaction that keeps writers out).
    ///
    /// - Parameter first: The cheapest method to try (tests start later).
    /// - Returns: The method that made the copy.
    /// - Throws: `CocoaError` naming the path when a file cannot be opened,
    ///   read or written, or `destination` exists.
    @discardableResult
    package static func copy(
        from source: String, to destination: String, trying first: Method = .clone
    ) throws -> Method {
        let input = open(source, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else { throw failure(.fileReadUnknown, source, "opening it") }
        defer { close(input) }
        var status = stat()
        guard fstat(input, &status) == 0 else {
            throw failure(.fileReadUnknown, source, "reading its size")
        }
        let output = open(
            destination, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode_t(status.st_mode & 0o777))
        guard output >= 0 else { throw failure(.fileWriteUnknown, destination, "creating it") }
        do {
            let method = try copyContents(
                input, to: output, size: Int64(status.st_size), trying: first,
                paths: (source, destination))
            guard close(output) == 0 else {
                throw failure(.fileWriteUnknown, destination, "closing it")
            }
            return method
        } catch {
            close(output)
            unlink(destination)  // Half a copy is no copy.
            throw error
        }
    }

    private static func copyContents(
        _ input: Int32, to output: Int32, size: Int64, trying first: Method,
        paths: (source: String, destination: String)
    ) throws -> Method {
        if first <= .clone {
            if strata_clone_file(output, input) == 0 { return .clone }
            guard cannotDo(errno) else {
                throw failure(.fileWriteUnknown, paths.destination, "cloning \(paths.source)")
            }
        }
        var copied: Int64 = 0
        if first <= .kernelCopy {
            while copied < size {
                let count = strata_copy_file_range(input, output, size - copied)
                if count > 0 {
                    copied += count
                } else if count == 0 {
                    return .kernelCopy  // The source ended early: what it holds is copied.
                } else if errno == EINTR {
                    continue
                } else if cannotDo(errno) {
                    break  // The offsets stand where the kernel stopped: go on from there.
                } else {
                    throw failure(.fileWriteUnknown, paths.destination, "copying \(paths.source)")
                }
            }
            if copied >= size { return .kernelCopy }
        }
        try readWrite(input, to: output, paths: paths)
        return .readWrite
    }

    /// Copies from both files' offsets to the end of `input`.
    private static func readWrite(
        _ input: Int32, to output: Int32, paths: (source: String, destination: String)
    ) throws {
        let size = 1 << 20
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 4096)
        defer { buffer.deallocate() }
        while true {
            let count = read(input, buffer, size)
            if count == 0 { return }
            if count < 0 {
                if errno == EINTR { continue }
                throw failure(.fileReadUnknown, paths.source, "reading it")
            }
            var written = 0
            while written < count {
                let wrote = write(output, buffer + written, count - written)
                if wrote < 0 {
                    if errno == EINTR { continue }
                    throw failure(.fileWriteUnknown, paths.destination, "writing it")
                }
                written += wrote
            }
        }
    }

    /// Whether `code` says the file system (or kernel) does not offer a
    /// method, rather than that the copy failed.
    private static func cannotDo(_ code: Int32) -> Bool {
        [EOPNOTSUPP, ENOTSUP, EXDEV, EINVAL, ENOTTY, ENOSYS, EBADF, EPERM].contains(code)
    }

    private static func failure(_ code: CocoaError.Code, _ path: String, _ activity: String)
        -> CocoaError
    {
        let reason = String(cString: strerror(errno))
        return CocoaError(
            code,
            userInfo: [
                NSFilePathErrorKey: path,
                NSLocalizedDescriptionKey: "\(path): \(activity) failed: \(reason)",
            ])
    }
}
