import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Extracts chosen entries of a ``ZipReader`` into a folder, all or nothing.
///
/// Safety: every destination is a checked relative name (no `..`, no
/// absolute path); folders are walked component by component without
/// following symlinks (`O_NOFOLLOW`), so a link planted in the target cannot
/// lead outside it; an existing file is never overwritten. Files are first
/// written into a hidden staging folder inside the target (`O_EXCL`), each
/// checked (size, CRC-32, and the caller's own check), all flushed to disk,
/// then linked into place with `link(2)`, which refuses to replace anything. When
/// anything fails — a hostile entry, a checksum, a file that appeared — the
/// files and folders already placed are removed again, so the target is left
/// as it was. (A process killed mid-way can leave the staging folder,
/// `.strata-extract-…`, behind.)
///
/// ```swift
/// let reader = try ZipReader(contentsOf: bundleURL)
/// let media = reader.entries.filter { $0.path.hasPrefix("media/") }
/// let files = try ZipExtraction(into: folderURL).extract(media, from: reader)
/// ```
public struct ZipExtraction {
    /// The folder entries are extracted into; it must exist.
    public let directory: URL
    /// Whether the files are flushed to disk before they are placed, and
    /// the names after, so a power loss leaves no placed file incomplete;
    /// on by default. One `syncfs(2)` each time: it also flushes whatever
    /// else is pending on that file system.
    public var synchronizes = true

    /// Prepares an extraction into an existing folder.
    public init(into directory: URL) {
        self.directory = directory
    }

    /// Extracts entries: files with their bytes, folders empty.
    ///
    /// - Parameters:
    ///   - entries: Entries of `reader`, in the order to write them.
    ///   - reader: The archive.
    ///   - destination: The relative path each entry gets in the target,
    ///     checked like a name in the archive; by default its own path.
    ///   - observe: Sees each chunk of a file as it is written (to hash it).
    ///   - verify: Called after a file's last chunk, before it is placed;
    ///     throwing refuses the extraction.
    /// - Returns: The extracted files and folders, in the order of `entries`.
    /// - Throws: ``ArchiveError`` naming the entry (or what `verify` throws);
    ///   the target is then unchanged.
    @discardableResult
    public func extract(
        _ entries: [ZipEntry], from reader: ZipReader,
        destination: (ZipEntry) throws -> String = { $0.path },
        observe: (ZipEntry, UnsafeRawBufferPointer) throws -> Void = { _, _ in },
        verify: (ZipEntry) throws -> Void = { _ in }
    ) throws -> [URL] {
        let target = try ZipTargetFolder(directory.path)
        var plan: [(entry: ZipEntry, name: ZipName.Checked)] = []
        var names = ZipNameSet()
        for entry in entries {
            let name = try ZipName.check(Array(try destination(entry).utf8), archive: target.path)
            guard name.isDirectory == (entry.kind == .directory) else {
                throw ArchiveError(
                    .invalidName, path: target.path, entry: entry.path,
                    message: "its destination \(ArchiveError.quoted(name.path)) "
                        + "is not of the entry's kind (a folder ends with \"/\")")
            }
            try names.insert(name, archive: target.path)
            try target.checkFree(name, entry: entry.path)
            plan.append((entry, name))
        }
        let staging = try target.makeStaging()
        var committed = ZipTargetFolder.Placed()
        do {
            for (number, step) in plan.enumerated() where step.entry.kind == .file {
                try staging.write(name: String(number)) { output in
                    try reader.read(step.entry) { chunk in
                        try observe(step.entry, chunk)
                        try output(chunk)
                    }
                    try verify(step.entry)
                }
            }
            // The bytes reach the disk before any name points at them.
            if synchronizes { try staging.synchronize() }
            for (number, step) in plan.enumerated() {
                try target.place(
                    step.name, from: step.entry.kind == .file ? (staging, String(number)) : nil,
                    entry: step.entry.path, placed: &committed)
            }
        } catch {
            target.undo(committed)
            staging.remove()
            throw error
        }
        staging.remove()
        // The names are placed and complete; a failure to flush them now
        // would not make the extraction undoable, so it is not reported.
        if synchronizes { try? target.synchronize() }
        return plan.map { directory.appendingPathComponent($0.name.path) }
    }
}
