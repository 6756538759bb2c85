import Foundation
import StrataCore
import StrataStore

#if canImport(Glibc)
    import Glibc
#endif

/// A folder of files written whole or not at all: the files go into a
/// hidden work folder beside the target (``WorkFiles``), which is renamed
/// into place only when complete. A failed or abandoned folder leaves the
/// target as it was.
///
/// An existing folder that holds files is refused unless replacing was
/// asked for; an empty one is taken. File names are checked: no path
/// separator, no NUL, not hidden, not `.` or `..`, and each name once, so
/// nothing is ever written outside the folder. A static web site's files
/// (``write(relativePath:bytes:)``) may sit in subfolders, each folder name
/// checked the same way.
///
/// Used by `export --format txt-files` and the web view's static export.
package final class ExportFolder {
    /// The target's path as given.
    let path: String
    /// Files written so far.
    package private(set) var count = 0
    /// Bytes written so far.
    package private(set) var written: Int64 = 0
    private let target: URL
    private let work: URL
    private let replaces: Bool
    private var names = Set<String>()
    /// The subfolders made so far, by their paths inside the folder.
    private var folders = Set<String>()
    private var isFinished = false

    /// Makes the work folder beside `path`.
    ///
    /// - Throws: ``ExportError`` `alreadyExists` when `path` is a folder
    ///   with files in it (and `replacing` is false) or is not a folder;
    ///   `unwritable` when the work folder cannot be made.
    package init(path: String, replacing: Bool) throws {
        self.path = path
        self.replaces = replacing
        target = URL(fileURLWithPath: path)
        var info = stat()
        if lstat(path, &info) == 0 {
            guard info.st_mode & S_IFMT == S_IFDIR else {
                throw ExportError(
                    .alreadyExists, path: path,
                    "is a file, not a folder; this export writes a folder of files")
            }
            let entries = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
            if !replacing, !entries.isEmpty {
                throw ExportError(
                    .alreadyExists, path: path,
                    "the folder is not empty; not replacing it (give --force to replace it)")
            }
        }
        WorkFiles.removeLeftovers(of: target)
        do {
            work = try WorkFiles.makeFolder(for: target, activity: "writing")
        } catch {
            throw ExportError(.unwritable, path: path, "cannot make a work folder beside it")
        }
    }

    deinit {
        if !isFinished { abandon() }
    }

    /// Writes one file named `name` holding `bytes`.
    ///
    /// - Throws: ``ExportError`` `unwritable` for a name that is not one
    ///   plain, visible file name, a name given twice, or a write that fails.
    func write(name: String, bytes: [UInt8]) throws {
        guard Self.isSafe(name) else {
            throw ExportError(
                .unwritable, path: path, "'\(name)' is not a plain file name inside the folder")
        }
        try writeFile(name, bytes, count: bytes.count)
    }

    /// Writes one file at `relativePath` (`object/Note/12.html`), making
    /// its folders as needed.
    ///
    /// - Throws: ``ExportError`` `unwritable` when a component is not one
    ///   plain, visible name, the path was written before, or a write fails.
    package func write(relativePath: String, bytes: Data) throws {
        let components = relativePath.split(separator: "/", omittingEmptySubsequences: false)
        guard components.allSatisfy({ Self.isSafe(String($0)) }) else {
            throw ExportError(
                .unwritable, path: path, "'\(relativePath)' is not a plain path inside the folder")
        }
        var folder = ""
        for component in components.dropLast() {
            folder += (folder.isEmpty ? "" : "/") + component
            guard folders.insert(folder).inserted else { continue }
            guard mkdir(work.appendingPathComponent(folder).path, 0o755) == 0 else {
                throw ExportError(
                    .unwritable, path: path + "/" + folder,
                    "cannot make the folder: \(String(cString: strerror(errno)))")
            }
        }
        try writeFile(relativePath, bytes, count: bytes.count)
    }

    /// Creates `name` (a path inside the work folder) and writes `bytes`
    /// to disk.
    private func writeFile(_ name: String, _ bytes: some ContiguousBytes, count byteCount: Int)
        throws
    {
        guard names.insert(name).inserted else {
            throw ExportError(.unwritable, path: path, "the file name '\(name)' is taken twice")
        }
        let file = work.appendingPathComponent(name).path
        let descriptor = open(file, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw ExportError(
                .unwritable, path: path + "/" + name,
                "cannot create: \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        if let code = bytes.withUnsafeBytes({ FileDescriptorOutput.writeAll($0, to: descriptor) }) {
            throw ExportError(
                .unwritable, path: path + "/" + name,
                "cannot write: \(FileDescriptorOutput.reason(code))")
        }
        guard fsync(descriptor) == 0 else {
            throw ExportError(
                .unwritable, path: path + "/" + name,
                "cannot write to disk: \(String(cString: strerror(errno)))")
        }
        count += 1
        written += Int64(byteCount)
    }

    /// Puts the folder in place: renamed over the target (an empty folder,
    /// or with replacing, a folder of files, moved aside and removed).
    ///
    /// - Throws: ``ExportError`` when the folder cannot be put in place; the
    ///   target is then as it was.
    package func commit() throws {
        isFinished = true
        // The work folder is private (0700); the export is an ordinary folder.
        _ = chmod(work.path, 0o755)  // Best effort: the files are the point.
        if rename(work.path, path) == 0 { return }
        let code = errno
        guard code == ENOTEMPTY || code == EEXIST, replaces else {
            WorkFiles.remove(work)
            throw ExportError(
                code == ENOTEMPTY || code == EEXIST ? .alreadyExists : .unwritable, path: path,
                code == ENOTEMPTY || code == EEXIST
                    ? "the folder is not empty; not replacing it (give --force to replace it)"
                    : "cannot put the folder in place: \(String(cString: strerror(code)))")
        }
        let aside = WorkFiles.url(for: target, activity: "replaced")
        WorkFiles.remove(aside)
        guard rename(path, aside.path) == 0 else {
            let reason = String(cString: strerror(errno))
            WorkFiles.remove(work)
            throw ExportError(
                .unwritable, path: path, "cannot move the old folder aside: \(reason)")
        }
        guard rename(work.path, path) == 0 else {
            let reason = String(cString: strerror(errno))
            _ = rename(aside.path, path)  // Put the old folder back; it is still whole.
            WorkFiles.remove(work)
            throw ExportError(.unwritable, path: path, "cannot put the folder in place: \(reason)")
        }
        WorkFiles.remove(aside)
    }

    /// Drops the work folder; the target stays as it was.
    package func abandon() {
        isFinished = true
        WorkFiles.remove(work)
    }

    /// Whether `name` is one visible file name: not empty, no `/` or NUL,
    /// not starting with a dot.
    static func isSafe(_ name: String) -> Bool {
        !name.isEmpty && !name.hasPrefix(".") && !name.utf8.contains(UInt8(ascii: "/"))
            && !name.utf8.contains(0)
    }

}
