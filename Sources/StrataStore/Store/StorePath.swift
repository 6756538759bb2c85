import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Where a store really is: a path whose last component is a symbolic link
/// names the link's target.
///
/// Everything Strata puts beside a store (its lock, backups, stage copies,
/// the hidden file a store is built in, `-wal` and `-shm`) belongs beside the
/// real file: the link and the real path must share one lock, and a copy of
/// a link is a second link to the live store, not a copy. So every command
/// resolves its store path once, at the start, and works on the result.
/// Folders along the path may be links: siblings of the store land in the
/// real folder either way.
///
/// ```swift
/// let real = try StorePath.resolve(URL(fileURLWithPath: "link.sqlite"))
/// ```
public enum StorePath {
    /// The most links followed before giving up (the kernel's own `ELOOP`
    /// limit on Linux).
    static let maximumLinks = 40

    /// `url` with the symbolic links of its last component followed to the
    /// file they name; `url` itself when it is no link or names nothing.
    ///
    /// A relative link target is taken relative to the link's folder. The
    /// result stays relative when `url` and the targets are.
    ///
    /// - Parameter url: A store path as given.
    /// - Returns: The real file's path.
    /// - Throws: ``StoreError`` (`notFound`) for a loop of links, or a link
    ///   whose target does not exist: no store is ever created through a
    ///   link Strata did not make.
    public static func resolve(_ url: URL) throws -> URL {
        var path = url.relativePath
        var followed = 0
        while let target = linkTarget(of: path) {
            followed += 1
            guard followed <= maximumLinks else {
                throw StoreError(
                    .notFound, path: url.relativePath,
                    message: "a loop of symbolic links (more than \(maximumLinks) followed); "
                        + "give the store's real path")
            }
            if target.hasPrefix("/") {
                path = target
            } else {
                let folder = (path as NSString).deletingLastPathComponent
                path = folder.isEmpty ? target : folder + "/" + target
            }
        }
        guard followed > 0 else { return url }
        var info = stat()
        guard lstat(path, &info) == 0 else {
            throw StoreError(
                .notFound, path: url.relativePath,
                message: "a symbolic link to \(path), which does not exist; Strata does not "
                    + "create a store through a link: give the real path, or remove the link")
        }
        return URL(fileURLWithPath: (path as NSString).standardizingPath)
    }

    /// The target `path` names when it is a symbolic link, nil otherwise.
    private static func linkTarget(of path: String) -> String? {
        var info = stat()
        guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFLNK else { return nil }
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink(path, &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Throws when a companion of the store SQLite opens by name (`-wal`,
    /// `-shm`, `-journal`) is a symbolic link: SQLite would write through
    /// it, or refuse with a bare "unable to open database file".
    ///
    /// - Parameters:
    ///   - path: The store's (real) path.
    ///   - activity: What was about to happen, for the message.
    static func refuseLinkedCompanions(of path: String, activity: String) throws {
        for suffix in ["-wal", "-shm", "-journal"] {
            var info = stat()
            guard lstat(path + suffix, &info) == 0, info.st_mode & S_IFMT == S_IFLNK else {
                continue
            }
            throw StoreError(
                .readOnly, path: path,
                message: "cannot \(activity): \(path)\(suffix) is a symbolic link, and SQLite "
                    + "keeps the store's \(suffix.dropFirst()) file as a plain file beside it; "
                    + "remove the link (its target is not part of the store) and run again; "
                    + "nothing was changed")
        }
    }
}
