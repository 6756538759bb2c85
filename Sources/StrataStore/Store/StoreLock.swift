import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The advisory lock beside a store (`<store>.strata-lock`) that keeps
/// Strata's writers out of each other's way across processes.
///
/// A migration holds it exclusively for its whole run, and so does a
/// seeding while it builds a missing store (before the store exists); a
/// context's save holds it shared for the length of one transaction. So a
/// second `strata migrate` waits for the first (then finds the store up to
/// date) or gives up with a clear message, and no save lands in the middle
/// of a migration. SQLite's own locks still guard each transaction; this lock
/// guards what spans several of them.
///
/// The lock is `flock(2)` on its own file, never on the store: closing any
/// descriptor of the store file would drop the POSIX locks SQLite holds on it.
/// The last holder removes the file; a process that locked a file just
/// removed sees that it no longer has the name and starts again.
///
/// ```swift
/// let lock = try StoreLock(for: storeURL, mode: .exclusive, waitingUpTo: 30)
/// defer { lock.release() }
/// ```
public final class StoreLock {
    /// How the lock is held.
    public enum Mode: Sendable {
        /// With other shared holders: a save.
        case shared
        /// Alone: a migration.
        case exclusive
    }

    /// The lock file's path.
    public let path: String
    private var descriptor: CInt

    /// The lock file's path for the store at `store`: beside its real file
    /// (``StorePath``), so a link and the real path share one lock.
    public static func path(for store: URL) -> String {
        ((try? StorePath.resolve(store)) ?? store).path + ".strata-lock"
    }

    /// Takes the lock of the store at `store`, waiting while another process
    /// (or another holder in this one) has it in a conflicting mode.
    ///
    /// - Parameters:
    ///   - store: The store's location.
    ///   - mode: Shared or exclusive.
    ///   - timeout: How long to wait, in seconds; 0 refuses at once.
    ///   - waiting: Called once, when the lock is busy and waiting begins.
    /// - Throws: ``StoreError`` (`locked`) when the wait ran out, or the lock
    ///   file cannot be created, naming the store.
    public init(
        for store: URL, mode: Mode, waitingUpTo timeout: TimeInterval,
        waiting: () -> Void = {}
    ) throws {
        path = Self.path(for: store)
        descriptor = -1
        let operation = mode == .exclusive ? LOCK_EX : LOCK_SH
        let deadline = Date().addingTimeInterval(max(timeout, 0))
        var announced = false
        while true {
            // Never through a link: a link planted at the lock's name would
            // have the file created (by root, say) wherever it points.
            descriptor = Glibc.open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o644)
            guard descriptor >= 0 else {
                let code = errno
                let reason =
                    code == ELOOP
                    ? "it is a symbolic link Strata did not make; remove it and run again"
                    : String(cString: strerror(code))
                throw StoreError(
                    .locked, path: store.relativePath,
                    message: "cannot create the lock file \(path): \(reason)")
            }
            if flock(descriptor, operation | LOCK_NB) == 0 {
                // The last holder may have removed the file between our open
                // and our lock: a lock on a removed file guards nothing.
                if isStillThePath() { return }
            } else if errno != EWOULDBLOCK && errno != EINTR {
                let reason = String(cString: strerror(errno))
                release()
                throw StoreError(
                    .locked, path: store.relativePath, message: "cannot lock \(path): \(reason)")
            }
            release()
            guard Date() < deadline else {
                throw StoreError(
                    .locked, path: store.relativePath,
                    message: "another process is "
                        + (mode == .exclusive ? "migrating or saving to" : "migrating")
                        + " the store (it holds \(path)); waited \(Self.seconds(timeout)); "
                        + "nothing was changed")
            }
            if !announced {
                announced = true
                waiting()
            }
            // Polling: flock has no timed wait, and a blocking flock could
            // not be given up on. 20 ms keeps the wait short and cheap.
            usleep(20_000)
        }
    }

    deinit { release() }

    /// Gives the lock up; releasing twice is fine.
    ///
    /// The last holder removes the lock file, so none is left beside the
    /// store: a holder that can take the lock exclusively is the only one.
    /// Others that opened the file meanwhile notice it is gone and make it
    /// afresh.
    public func release() {
        guard descriptor >= 0 else { return }
        if flock(descriptor, LOCK_EX | LOCK_NB) == 0, isStillThePath() {
            unlink(path)
        }
        Glibc.close(descriptor)  // Closing drops the flock.
        descriptor = -1
    }

    /// Whether the open lock file is still the file at ``path``.
    private func isStillThePath() -> Bool {
        var open = stat()
        var named = stat()
        guard fstat(descriptor, &open) == 0, lstat(path, &named) == 0 else { return false }
        return open.st_ino == named.st_ino && open.st_dev == named.st_dev
    }

    private static func seconds(_ interval: TimeInterval) -> String {
        interval == interval.rounded() ? "\(Int(interval)) s" : "\(interval) s"
    }
}
