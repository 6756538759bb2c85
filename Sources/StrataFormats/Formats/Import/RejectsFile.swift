import Foundation
import StrataCore

#if canImport(Glibc)
    import Glibc
#endif

/// The `--rejects` file of an import, guarded: checked before anything is
/// read, written only when a record is rejected, and put in place whole at
/// the end.
///
/// The path may not be the store, one of its `-wal`, `-shm` or `-journal`
/// files, or the input (by name or as the same file through a link), and
/// an existing file is replaced only when asked. The records go to a work
/// file beside the path (``WorkFiles``), made by the format's own writer at
/// the first rejected record, and reach the path when the import finishes:
/// a killed or failed import leaves the path as it was, and an import that
/// rejects nothing leaves no file.
///
/// ```swift
/// let rejects = try RejectsFile(
///     path: "bad.json", replacing: false, store: storePath, input: inputPath)
/// rejects.makeWriter = { path in try JSONRecordWriter(path: path) }
/// importer.rejects = rejects
/// ```
public final class RejectsFile: RejectWriter {
    /// The rejects file's path as given.
    public let path: String
    /// How many records were written.
    public private(set) var count = 0
    private let companions: [String]
    private let replacing: Bool
    private let work: URL
    /// Creates the format's writer at the (work) path it is given, at the
    /// first rejected record.
    public var makeWriter: (String) throws -> any RejectWriter = { path in
        throw ImportError(.unreadable, at: SourcePosition(file: path), "no rejects writer")
    }
    private var writer: (any RejectWriter)?

    /// Checks `path` and prepares the rejects file; nothing is created yet.
    ///
    /// - Parameters:
    ///   - path: Where the rejects go.
    ///   - companions: Suffixes of the files the writer makes beside its
    ///     path (`.reasons.txt` of txt lines), checked and moved likewise.
    ///   - replacing: Whether an existing file may be replaced (`--force`).
    ///   - store: The store's path: it and its `-wal`, `-shm` and
    ///     `-journal` files are refused.
    ///   - input: The input's path, refused.
    /// - Throws: ``ImportError`` (`unsafePath`) naming the file a rejects
    ///   path would replace.
    public init(
        path: String, companions: [String] = [], replacing: Bool, store: String, input: String
    ) throws {
        self.path = path
        self.companions = companions
        self.replacing = replacing
        let url = URL(fileURLWithPath: path)
        work = WorkFiles.url(for: url, activity: "rejects")
        let protected =
            [(store, "the store")]
            + ["-wal", "-shm", "-journal"].map {
                (store + $0, "the store's \($0.dropFirst()) file")
            }
            + [(input, "the input")]
        for target in [path] + companions.map({ path + $0 }) {
            for (file, role) in protected where Self.isSame(target, file) {
                throw ImportError(
                    .unsafePath, at: SourcePosition(file: path),
                    "--rejects \(target) is \(role) (\(file)); give another path for the "
                        + "rejected records; nothing was read or written")
            }
            var info = stat()
            if !replacing, lstat(target, &info) == 0 {
                throw ImportError(
                    .unsafePath, at: SourcePosition(file: path),
                    "--rejects \(target) exists; not replacing it (give another path, or "
                        + "--force to replace it); nothing was read or written")
            }
        }
        WorkFiles.removeLeftovers(of: url)
    }

    deinit {
        if writer != nil { abandon() }
    }

    /// Writes one rejected record, creating the work file at the first.
    public func write(_ rejected: RejectedRecord) throws {
        if writer == nil {
            writer = try makeWriter(work.path)
            for file in workFiles {
                WorkFiles.matchPermissions(of: file, to: URL(fileURLWithPath: path))
            }
        }
        try writer?.write(rejected)
        count += 1
    }

    /// Closes the file and puts it (and its companions) in place; with no
    /// record written, does nothing.
    ///
    /// - Throws: ``ImportError`` when it cannot be written or put in place
    ///   (then the path is as it was).
    public func finish() throws {
        guard let writer else { return }
        do {
            try writer.finish()
            for (file, suffix) in zip(workFiles, [""] + companions) {
                let target = path + suffix
                let moved =
                    replacing ? rename(file.path, target) == 0 : link(file.path, target) == 0
                guard moved else {
                    throw ImportError(
                        .unreadable, at: SourcePosition(file: target),
                        "cannot put the rejects file in place: \(String(cString: strerror(errno)))"
                            + "; the records were imported, the rejected ones are not saved")
                }
                unlink(file.path)  // Linked: the old name is clutter; renamed: gone already.
            }
            self.writer = nil
        } catch {
            abandon()
            throw error
        }
    }

    /// Drops the work files; the path stays as it was.
    public func abandon() {
        try? writer?.finish()  // Closing only; the files are removed next.
        writer = nil
        for file in workFiles { WorkFiles.remove(file) }
    }

    private var workFiles: [URL] {
        [work] + companions.map { URL(fileURLWithPath: work.path + $0) }
    }

    /// Whether `a` and `b` name one file: the same path once made absolute,
    /// or the same existing file (through links or other names).
    public static func isSame(_ a: String, _ b: String) -> Bool {
        let cwd = FileManager.default.currentDirectoryPath
        func absolute(_ path: String) -> String {
            ((path.hasPrefix("/") ? path : cwd + "/" + path) as NSString).standardizingPath
        }
        if absolute(a) == absolute(b) { return true }
        var first = stat()
        var second = stat()
        guard stat(a, &first) == 0, stat(b, &second) == 0 else { return false }
        return first.st_dev == second.st_dev && first.st_ino == second.st_ino
    }
}
