import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// File operations Foundation does not offer with the guarantees Strata needs.
package enum FileSystem {
    /// Makes `destination` name the file at `source`, failing if
    /// `destination` exists, then removes the `source` name.
    ///
    /// `link(2)` is atomic and never replaces a file, unlike `rename(2)`; the
    /// directory is synced afterwards so the new name survives a power loss.
    package static func linkWithoutReplacing(_ source: String, to destination: String) throws {
        if link(source, destination) != 0 {
            let code = errno
            if code == EEXIST {
                throw StoreError(
                    .alreadyExists, path: destination,
                    message: "a file already exists here; not replacing it")
            }
            throw StoreError(
                .notFound, path: destination,
                message: "cannot create: \(String(cString: strerror(code)))")
        }
        unlink(source)  // The new name holds the data; a leftover name is only clutter.
        syncDirectory(of: destination)
    }

    /// Flushes the directory entry of `path` to disk (best effort).
    static func syncDirectory(of path: String) {
        let directory = (path as NSString).deletingLastPathComponent
        let descriptor = Glibc.open(directory.isEmpty ? "." : directory, O_RDONLY)
        guard descriptor >= 0 else { return }  // Durability only; the link itself succeeded.
        fsync(descriptor)
        close(descriptor)
    }

    /// The size in bytes of the file at `path`, 0 when it does not exist.
    ///
    /// As `FileManager.attributesOfItem` gives it (a link's own size, not
    /// its target's), through one `lstat`: the attributes dictionary cost
    /// every store opened about 0.15 ms (owner names looked up, values
    /// boxed).
    package static func size(of path: String) -> Int64 {
        var status = stat()
        guard lstat(path, &status) == 0 else { return 0 }
        return Int64(status.st_size)
    }

    /// An exclusive `flock(2)` on the hidden file a new store is built in,
    /// held for the whole build.
    ///
    /// Taking it creates the file if needed and empties a leftover that a
    /// killed create left (with its `-journal`, `-wal` and `-shm`); a second
    /// create of the same store finds the lock taken and refuses.
    final class CreationLock {
        private var descriptor: Int32

        init(_ path: String, storePath: String) throws {
            descriptor = -1
            // A cleanup of leftovers (WorkFiles) may remove the file between
            // our open and our lock: then lock the new one.
            for _ in 0..<8 {
                try open(path, storePath: storePath)
                if isStillThePath(path) { break }
                release()
            }
            guard descriptor >= 0 else {
                throw StoreError(
                    .alreadyExists, path: storePath,
                    message: "another process keeps replacing \(path); not creating the store")
            }
            // Ours now: whatever is in it was left by a create that died.
            _ = ftruncate(descriptor, 0)  // SQLite would read a leftover; an error surfaces there.
            for suffix in ["-journal", "-wal", "-shm"] { unlink(path + suffix) }
        }

        /// Opens and locks the file at `path`, never through a link: a link
        /// planted at the hidden name is refused, not followed.
        private func open(_ path: String, storePath: String) throws {
            descriptor = Glibc.open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o644)
            guard descriptor >= 0 else {
                let code = errno
                let folder = (path as NSString).deletingLastPathComponent
                let shown = folder.isEmpty ? "." : folder
                let message: String
                switch code {
                case ENOENT, ENOTDIR:
                    message = "cannot create the store: its folder \(shown) does not exist"
                case ELOOP:
                    message =
                        "cannot create the store: \(path) is a symbolic link Strata did not "
                        + "make; remove it and run again"
                case EACCES, EPERM, EROFS:
                    message =
                        "cannot create the store: its folder \(shown) is read-only "
                        + "(\(String(cString: strerror(code))))"
                default:
                    message =
                        "cannot create the store file beside it (\(path)): "
                        + String(cString: strerror(code))
                }
                throw StoreError(.readOnly, path: storePath, message: message)
            }
            guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
                Glibc.close(descriptor)
                descriptor = -1
                throw StoreError(
                    .alreadyExists, path: storePath,
                    message: "another create of this store is running (it holds \(path))")
            }
        }

        /// Whether the open file is still the one named `path`.
        private func isStillThePath(_ path: String) -> Bool {
            var open = stat()
            var named = stat()
            guard fstat(descriptor, &open) == 0, lstat(path, &named) == 0 else { return false }
            return open.st_ino == named.st_ino && open.st_dev == named.st_dev
        }

        /// Lets the next create take the file.
        package func release() {
            guard descriptor >= 0 else { return }
            Glibc.close(descriptor)
            descriptor = -1
        }

        deinit { release() }
    }
}
