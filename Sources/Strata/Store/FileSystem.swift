import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// File operations Foundation does not offer with the guarantees Strata needs.
enum FileSystem {
    /// Makes `destination` name the file at `source`, failing if
    /// `destination` exists, then removes the `source` name.
    ///
    /// `link(2)` is atomic and never replaces a file, unlike `rename(2)`; the
    /// directory is synced afterwards so the new name survives a power loss.
    static func linkWithoutReplacing(_ source: String, to destination: String) throws {
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
    static func size(of path: String) -> Int64 {
        let attributes = try? FileManager.default.attributesOfItem(atPath: path)
        return (attributes?[.size] as? NSNumber)?.int64Value ?? 0
    }
}
