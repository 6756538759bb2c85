import Foundation
import StrataCore

#if canImport(Glibc)
    import Glibc
#endif

/// A file written through one byte buffer and put in place atomically: the
/// bytes go to a hidden file beside the target, which is linked into place
/// (or renamed over it, when replacing was asked for) only when complete.
/// A failed or abandoned output leaves the target as it was.
///
/// `-` writes to standard output instead (no atomicity there).
final class ExportOutput {
    /// The target's path as given.
    let path: String
    /// The bytes not written yet; writers append here.
    var buffer: [UInt8] = []
    /// Bytes handed to the file so far.
    private(set) var written: Int64 = 0
    private var descriptor: Int32
    private let temporary: String?
    private let replaces: Bool
    private var isFinished = false

    /// The buffer is written out when it passes this size.
    static let flushSize = 1 << 20

    /// Opens a hidden file beside `path` (or standard output for `-`).
    ///
    /// - Throws: ``ExportError`` `alreadyExists` when `path` exists and
    ///   `replacing` is false; `unwritable` when the folder does not allow it.
    init(path: String, replacing: Bool) throws {
        self.path = path
        self.replaces = replacing
        buffer.reserveCapacity(Self.flushSize + 64 * 1024)
        if path == "-" {
            descriptor = STDOUT_FILENO
            temporary = nil
            return
        }
        if !replacing, FileManager.default.fileExists(atPath: path) {
            throw ExportError(
                .alreadyExists, path: path, "a file already exists here; not replacing it")
        }
        let url = URL(fileURLWithPath: path)
        WorkFiles.removeLeftovers(of: url)
        let work = WorkFiles.url(for: url, activity: "writing")
        let hidden = work.relativePath
        descriptor = WorkFiles.createFile(work, replacing: url)
        guard descriptor >= 0 else {
            throw ExportError(
                .unwritable, path: path,
                "cannot create a file beside it: \(String(cString: strerror(errno)))")
        }
        temporary = hidden
    }

    deinit {
        if !isFinished { abandon() }
    }

    /// Appends text.
    @inline(__always)
    package func append(_ text: StaticString) {
        text.withUTF8Buffer { buffer.append(contentsOf: $0) }
    }

    /// Appends a string's UTF-8 bytes.
    @inline(__always)
    package func append(_ text: String) {
        buffer.append(contentsOf: text.utf8)
    }

    /// Hands the buffer (with what it holds) to a writer that fills a
    /// local copy; ``giveBack(_:)`` returns it.
    func takeBuffer() -> [UInt8] {
        var taken: [UInt8] = []
        swap(&taken, &buffer)
        return taken
    }

    /// Takes the buffer back from ``takeBuffer()``.
    func giveBack(_ bytes: [UInt8]) {
        buffer = bytes
    }

    /// Writes `bytes` to the file (after what the buffer holds).
    package func write(_ bytes: [UInt8]) throws {
        try flush()
        try bytes.withUnsafeBytes { try writeOut($0) }
    }

    /// Writes the buffer out when it is full.
    @inline(__always)
    func flushIfFull() throws {
        if buffer.count >= Self.flushSize { try flush() }
    }

    /// Writes the whole buffer to the file.
    func flush() throws {
        try buffer.withUnsafeBytes { try writeOut($0) }
        buffer.removeAll(keepingCapacity: true)
    }

    private func writeOut(_ raw: UnsafeRawBufferPointer) throws {
        if let code = FileDescriptorOutput.writeAll(raw, to: descriptor) {
            throw ExportError(
                .unwritable, path: path, "cannot write: \(FileDescriptorOutput.reason(code))")
        }
        written += Int64(raw.count)
    }

    /// Writes what is left, flushes the file to disk and puts it in place.
    ///
    /// - Returns: The file's size in bytes.
    /// - Throws: ``ExportError`` when writing fails or (without replacing)
    ///   a file appeared at the target meanwhile; the target is unchanged.
    @discardableResult
    func commit() throws -> Int64 {
        try flush()
        isFinished = true
        guard let temporary else { return written }
        defer { unlink(temporary) }
        guard fsync(descriptor) == 0 else {
            let reason = String(cString: strerror(errno))
            close(descriptor)
            throw ExportError(.unwritable, path: path, "cannot write to disk: \(reason)")
        }
        close(descriptor)
        if replaces {
            guard rename(temporary, path) == 0 else {
                throw ExportError(
                    .unwritable, path: path,
                    "cannot put the file in place: \(String(cString: strerror(errno)))")
            }
        } else if link(temporary, path) != 0 {
            let code = errno
            throw ExportError(
                code == EEXIST ? .alreadyExists : .unwritable, path: path,
                code == EEXIST
                    ? "a file already exists here; not replacing it"
                    : "cannot put the file in place: \(String(cString: strerror(code)))")
        }
        return written
    }

    /// Drops the hidden file; the target stays as it was.
    func abandon() {
        isFinished = true
        guard let temporary else { return }
        close(descriptor)
        unlink(temporary)
    }
}
