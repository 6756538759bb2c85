import Foundation
import Strata

#if canImport(Glibc)
    import Glibc
#endif

/// The stores a run of `strata migrate` on several paths works through: each
/// store named, and the store files directly in each folder named, in the
/// order given (a folder's by name), each real file once.
///
/// A folder is read one level deep: a folder of stores is the usual
/// layout (one per user, one per device), and a tree would also reach into
/// places such as an app's caches that nobody asked to migrate. Every file
/// in it is taken except those that are never a store of their own: hidden
/// files (Strata's work files `.<store>.strata-…`, Core Data's external
/// storage `.<store>_SUPPORT`), SQLite's `-wal`, `-shm` and `-journal`
/// files, and Strata's `<store>.strata-lock` and
/// `<store>.strata-backup-v<n>`. A file taken that is not a store is not
/// skipped but refused on its own line, as a damaged store must not be
/// passed over in silence; to take only some files, name them
/// (`stores/*.sqlite`).
struct StoreBatch: Sendable {
    /// A store to migrate, or a path that gives none, with the reason.
    struct Entry: Sendable {
        /// The store's real path (``StorePath``), or the path as given.
        var path: String
        /// Why there is nothing to migrate at `path`: a link to nothing, a
        /// folder without store files.
        var problem: StoreError?
    }

    /// The stores, in order.
    private(set) var entries: [Entry] = []
    private var seen: Set<String> = []

    /// The stores `paths` give: files as stores, folders as the store files
    /// directly in them.
    init(paths: [String]) {
        for given in paths {
            guard Self.isFolder(given) else {
                add(given)
                continue
            }
            let names: [String]
            do {
                names = try FileManager.default.contentsOfDirectory(atPath: given)
            } catch {
                entries.append(
                    Entry(
                        path: given,
                        problem: StoreError(
                            .readOnly, path: given,
                            message: "cannot list the folder: \(StoreActivity.reason(of: error))")))
                continue
            }
            let files = names.sorted().filter(Self.isCandidate).map {
                (given as NSString).appendingPathComponent($0)
            }.filter { !Self.isFolder($0) && Self.isFileOrLink($0) }
            guard !files.isEmpty else {
                entries.append(
                    Entry(
                        path: given,
                        problem: StoreError(
                            .notFound, path: given, message: "a folder without store files")))
                continue
            }
            files.forEach { add($0) }
        }
    }

    /// Adds the store at `given`, by its real path, unless it is there
    /// already (named twice, or by a link and by its own name): a second
    /// run on one store in the same batch would only wait for the first.
    private mutating func add(_ given: String) {
        do {
            let real = try ArgumentList.storePath(resolving: given)
            let key = URL(fileURLWithPath: real).standardizedFileURL.path
            guard seen.insert(key).inserted else { return }
            entries.append(Entry(path: real))
        } catch let error as StoreError {
            entries.append(Entry(path: given, problem: error))
        } catch {
            entries.append(
                Entry(path: given, problem: StoreError(.notFound, path: given, message: "\(error)"))
            )
        }
    }

    /// Whether a file of a folder may be a store: not hidden, not a file
    /// SQLite or Strata keeps beside a store.
    static func isCandidate(_ name: String) -> Bool {
        guard !name.hasPrefix(".") else { return false }
        let companions = ["-wal", "-shm", "-journal", ".strata-lock"]
        return !companions.contains { name.hasSuffix($0) } && !name.contains(".strata-backup-v")
    }

    /// Whether `path` is a folder, or a link to one.
    static func isFolder(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
            && isDirectory.boolValue
    }

    /// Whether `path` is a regular file, or a link (one to nothing is
    /// refused on its line, naming where it points); sockets and devices
    /// are not stores.
    private static func isFileOrLink(_ path: String) -> Bool {
        var info = stat()
        guard lstat(path, &info) == 0 else { return false }
        let kind = info.st_mode & S_IFMT
        if kind == S_IFLNK {
            var target = stat()
            return stat(path, &target) != 0 || target.st_mode & S_IFMT == S_IFREG
        }
        return kind == S_IFREG
    }
}
