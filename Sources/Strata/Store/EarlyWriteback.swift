import CFileSystem

#if canImport(Glibc)
    import Glibc
#endif

/// Starts the kernel writing a file that is being filled to the disk while
/// it is still being filled, so that the `fdatasync` that ends the write
/// waits for the last few megabytes rather than for all of them.
///
/// A store built from a bundle is about a hundred megabytes, written in one
/// transaction and synced once at its end: the sync waited ~90 ms for the
/// disk while nothing else was left to do. Writeback started early costs
/// the same disk work, done while the loader still has rows to insert.
/// Only a hint: where the call is missing or fails, the final sync does all
/// the work, as it would have.
final class EarlyWriteback {
    /// How much the file grows between two starts.
    static let step: Int64 = 8 << 20

    private let descriptor: Int32
    private var startedAt: Int64 = 0

    /// Watches the file at `path`; nil when it cannot be opened (then
    /// nothing is started early).
    init?(path: String) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        self.descriptor = descriptor
    }

    deinit {
        close(descriptor)
    }

    /// Starts writing the file's dirty pages when it has grown by
    /// ``step`` since the last start.
    ///
    /// - Returns: Whether it did.
    @discardableResult
    func advance() -> Bool {
        var status = stat()
        guard fstat(descriptor, &status) == 0, Int64(status.st_size) >= startedAt + Self.step else {
            return false
        }
        startedAt = Int64(status.st_size)
        // From the start: pages written again since the last call (a
        // B-tree's inner pages) are dirty again.
        _ = strata_start_writeback(descriptor, 0)  // A hint: failure changes nothing.
        return true
    }
}
