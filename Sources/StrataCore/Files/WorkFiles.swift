import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The hidden work files a run keeps beside the file it writes (a store, an
/// archive, an export): `.<name>.strata-<activity>-<pid>`, a file or a
/// folder.
///
/// They live beside the target, never in the shared temporary folder: on
/// the target's file system (so a finished file links into place), under
/// its folder's permissions, and private (a work folder is 0700, a work file
/// gets the permissions of the file it replaces). A run removes its own; a
/// killed run's stay until the next run of any command on the same target
/// calls ``removeLeftovers(of:)``, which removes those whose process is gone
/// (as `create` replaces the hidden file of a killed create).
///
/// ```swift
/// WorkFiles.removeLeftovers(of: storeURL)
/// let scratch = try WorkFiles.makeFolder(for: storeURL, activity: "importing")
/// defer { WorkFiles.remove(scratch) }
/// ```
public enum WorkFiles {
    /// The work path of this process for `activity` beside `target`.
    ///
    /// - Parameters:
    ///   - target: The file the work is for.
    ///   - activity: Lower-case letters naming the work (`unarchiving`).
    ///
    /// Work for a store still being built (`.<name>.strata-creating`) is
    /// named after the store, so the next run on the store finds it.
    public static func url(for target: URL, activity: String) -> URL {
        var name = target.lastPathComponent
        let building = ".strata-creating"
        if name.hasPrefix("."), name.hasSuffix(building), name.count > building.count + 1 {
            name = String(name.dropFirst().dropLast(building.count))
        }
        return target.deletingLastPathComponent()
            .appendingPathComponent(".\(name).strata-\(activity)-\(getpid())")
    }

    /// Creates this process's work file beside `target` for writing, with
    /// the permissions of the file it is to replace (0644 less the umask
    /// when there is none), never through a link.
    ///
    /// - Returns: The open descriptor, or -1 with `errno` set.
    package static func createFile(_ work: URL, replacing target: URL) -> Int32 {
        unlink(work.path)  // A leftover of a killed run of this very process id.
        let descriptor = open(
            work.path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
        if descriptor >= 0 { matchPermissions(of: descriptor, to: target) }
        return descriptor
    }

    /// Gives the open work file the permissions of `target`, when it
    /// exists: replacing a private file keeps it private.
    static func matchPermissions(of descriptor: Int32, to target: URL) {
        var info = stat()
        guard stat(target.path, &info) == 0 else { return }
        _ = fchmod(descriptor, info.st_mode & 0o7777)  // Best effort: the bytes are the point.
    }

    /// Gives the work file at `work` the permissions of `target`, when it
    /// exists.
    package static func matchPermissions(of work: URL, to target: URL) {
        var info = stat()
        guard stat(target.path, &info) == 0 else { return }
        _ = chmod(work.path, info.st_mode & 0o7777)  // Best effort: the bytes are the point.
    }

    /// Removes a work file or folder (absent is fine).
    public static func remove(_ work: URL) {
        try? FileManager.default.removeItem(at: work)  // Work files only; absent is the usual case.
    }

    /// Removes the work files beside `target` that processes no longer
    /// running left: `.<name>.strata-<activity>-<pid>` whose process is
    /// gone, the hidden file of a killed create (no create holds it) and the
    /// store's lock file when nobody holds it.
    ///
    /// Work of a running process, and every other file, is kept. A process
    /// id reused meanwhile only keeps a leftover until a later run.
    ///
    /// - Parameter target: A store, archive or export path.
    /// - Returns: The names removed, sorted.
    @discardableResult
    public static func removeLeftovers(of target: URL) -> [String] {
        // Every command runs this on its target, and there is nearly always
        // nothing to remove: the folder is listed with readdir, keeping only
        // the names that could be work files, before any URL is built
        // (listing with FileManager and taking URLs apart cost a one-shot
        // command about 0.15 ms).
        let path = target.path
        let slash = path.lastIndex(of: "/")
        let targetName = slash.map { String(path[path.index(after: $0)...]) } ?? path
        let folderPath = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        let prefix = ".\(targetName).strata-"
        let lockName = targetName + ".strata-lock"
        let isWorkFile = { (name: String) in name.hasPrefix(prefix) || name == lockName }
        guard let names = entryNames(in: folderPath, where: isWorkFile), !names.isEmpty else {
            return []
        }
        let folder = target.deletingLastPathComponent()
        var removed: [String] = []
        let lock = folder.appendingPathComponent(lockName)
        if names.contains(lockName), removeUnheldLock(lock.path) {
            removed.append(lockName)
        }
        for name in names.sorted() where name.hasPrefix(prefix) {
            let rest = name.dropFirst(prefix.count)
            let path = folder.appendingPathComponent(name)
            if rest == "creating" {
                if removeAbandonedCreation(path.path) { removed.append(name) }
                continue
            }
            guard let owner = processID(in: rest), owner != getpid(), !isRunning(owner) else {
                continue
            }
            if (try? FileManager.default.removeItem(at: path)) != nil { removed.append(name) }
        }
        return removed
    }

    /// The names in the folder at `path` that `isWanted` keeps, read with
    /// `readdir`; nil when the folder cannot be listed.
    private static func entryNames(
        in path: String, where isWanted: (String) -> Bool
    ) -> [String]? {
        guard let directory = opendir(path) else { return nil }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes -> String? in
                guard let first = bytes.first, first != 0 else { return nil }
                let length = bytes.firstIndex(of: 0) ?? bytes.count
                return String(decoding: bytes.prefix(length), as: UTF8.self)
            }
            if let name, isWanted(name) { names.append(name) }
        }
        return names
    }

    /// The process id of `<activity>-<pid>`, nil for any other name (the
    /// stage copies, backups and lock of a migration are not work files).
    static func processID(in rest: Substring) -> pid_t? {
        guard let dash = rest.lastIndex(of: "-") else { return nil }
        let activity = rest[..<dash]
        let digits = rest[rest.index(after: dash)...]
        guard !activity.isEmpty, activity.allSatisfy({ $0 >= "a" && $0 <= "z" }),
            !digits.isEmpty, digits.count <= 10, digits.allSatisfy({ $0.isASCII && $0.isNumber }),
            let number = pid_t(digits), number > 0
        else { return nil }
        return number
    }

    /// Whether a process with id `pid` exists (`kill(pid, 0)`; a process of
    /// another user counts as running).
    private static func isRunning(_ pid: pid_t) -> Bool {
        kill(pid, 0) == 0 || errno != ESRCH
    }

    /// Removes a store's lock file (``StoreLock``) a killed holder left,
    /// as its last holder would: only when it can be locked exclusively at
    /// once. A process that opened it meanwhile finds its name gone and makes
    /// it afresh.
    private static func removeUnheldLock(_ path: String) -> Bool {
        let descriptor = open(path, O_RDWR | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }  // Closing drops the flock.
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else { return false }  // Held.
        return unlink(path) == 0
    }

    /// Removes the hidden file a killed create left (with its companions),
    /// when no create holds its lock.
    private static func removeAbandonedCreation(_ path: String) -> Bool {
        let descriptor = open(path, O_RDWR | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }  // Closing drops the flock.
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else { return false }  // A create runs.
        for suffix in ["-journal", "-wal", "-shm"] { unlink(path + suffix) }
        return unlink(path) == 0
    }
}
