import Foundation
import StrataCore

#if canImport(Glibc)
    import Glibc
#endif

/// A folder of media files named by content: `<sha256>.<ext>`, the
/// extension from the content's magic bytes (``MediaType``), each content
/// written once, each file put in place atomically (a hidden file, then a
/// link that never replaces an existing one).
final class MediaFolder {
    /// The folder.
    let url: URL
    /// What is put before a file's name in the value written for it.
    let prefix: String
    /// Files written by this run.
    private(set) var written = 0

    /// Creates the folder when missing.
    ///
    /// - Parameters:
    ///   - url: The folder.
    ///   - outputFolder: The folder of the output: when `url` is inside it,
    ///     values are paths relative to it; otherwise relative to `url`.
    /// - Throws: ``ExportError`` `unwritable` when it cannot be created.
    init(url: URL, outputFolder: URL) throws {
        self.url = url.standardizedFileURL
        do {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        } catch {
            throw ExportError(
                .unwritable, path: url.relativePath, "cannot create the media folder: \(error)")
        }
        let base = outputFolder.standardizedFileURL.path
        let folder = self.url.path
        if folder.hasPrefix(base + "/") {
            prefix = String(folder.dropFirst(base.count + 1)) + "/"
        } else {
            prefix = ""
        }
    }

    /// Writes `bytes` (unless a file of that content is there already).
    ///
    /// - Returns: The value to write for it: the file's path (see ``prefix``).
    /// - Throws: ``ExportError`` `unwritable`.
    package func store(_ bytes: UnsafeRawBufferPointer) throws -> String {
        var hash = SHA256()
        hash.update(bytes)
        let name =
            SHA256.hex(hash.finalize()) + "." + MediaType.sniff(bytes.prefix(64)).fileExtension
        let target = url.appendingPathComponent(name).path
        if !FileManager.default.fileExists(atPath: target) {
            let hidden = url.appendingPathComponent(".\(name).strata-writing-\(getpid())").path
            unlink(hidden)
            let descriptor = open(hidden, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
            guard descriptor >= 0 else { throw failure(name) }
            defer { unlink(hidden) }
            if FileDescriptorOutput.writeAll(UnsafeRawBufferPointer(bytes), to: descriptor) != nil {
                close(descriptor)
                throw failure(name)
            }
            close(descriptor)
            if link(hidden, target) == 0 {
                written += 1
            } else if errno != EEXIST {
                throw failure(name)
            }
        }
        return prefix + name
    }

    private func failure(_ name: String) -> ExportError {
        ExportError(
            .unwritable, path: url.appendingPathComponent(name).relativePath,
            "cannot write the media file: \(String(cString: strerror(errno)))")
    }
}
