import Foundation

#if canImport(Glibc)
    import Glibc
#endif

extension ZipWriter {
    /// Writes a whole archive atomically: into a hidden temporary file beside
    /// `url`, flushed to disk, then linked into place. A process killed at
    /// any point leaves either no archive (or the old one) or the complete
    /// new one; a failure removes the temporary file.
    ///
    /// ```swift
    /// try ZipWriter.write(to: url) { zip in
    ///     try zip.add(path: "a.txt", bytes: Data("a".utf8))
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - url: The archive to create.
    ///   - replacing: Whether an existing file at `url` may be replaced;
    ///     by default it is refused, before anything is written.
    ///   - deflateLevel: zlib's level for deflated entries, 1 … 9.
    ///   - body: Adds the entries.
    /// - Throws: ``ArchiveError/Code/alreadyExists`` when `url` exists and
    ///   `replacing` is false, an error of the writer, or what `body` throws.
    public static func write(
        to url: URL, replacing: Bool = false, deflateLevel: Int = 6,
        _ body: (ZipWriter) throws -> Void
    ) throws {
        let target = url.path
        if !replacing, ZipWriter.exists(target) {
            throw ArchiveError(
                .alreadyExists, path: target,
                message: "a file already exists here; not replacing it")
        }
        let folder = url.deletingLastPathComponent()
        WorkFiles.removeLeftovers(of: url)
        let temporary = WorkFiles.url(for: url, activity: "writing")
        unlink(temporary.path)  // A leftover of a killed run of this very process id.
        do {
            let writer = try ZipWriter(creatingAt: temporary, deflateLevel: deflateLevel)
            WorkFiles.matchPermissions(of: temporary, to: url)
            try body(writer)
            try writer.finish()
            if replacing {
                guard rename(temporary.path, target) == 0 else {
                    throw ArchiveError(
                        .io, path: target,
                        message: "cannot move the archive into place: "
                            + String(cString: strerror(errno)))
                }
            } else {
                // link(2) never replaces a file, unlike rename(2).
                guard link(temporary.path, target) == 0 else {
                    let code = errno
                    throw ArchiveError(
                        code == EEXIST ? .alreadyExists : .io, path: target,
                        message: code == EEXIST
                            ? "a file appeared here while the archive was written; not replacing it"
                            : "cannot link the archive into place: \(String(cString: strerror(code)))"
                    )
                }
                unlink(temporary.path)
            }
        } catch {
            unlink(temporary.path)  // Gone already on success; clutter otherwise.
            throw error
        }
        syncFolder(folder.path)
    }

    /// Whether anything (even a dangling link) is at `path`.
    static func exists(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0
    }

    /// Flushes a folder's entries to disk so a new name survives a power
    /// loss (best effort: the file itself is already flushed).
    static func syncFolder(_ path: String) {
        let descriptor = Glibc.open(path.isEmpty ? "." : path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        fsync(descriptor)
        Glibc.close(descriptor)
    }
}
