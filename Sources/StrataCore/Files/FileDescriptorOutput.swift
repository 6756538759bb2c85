import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The one loop that writes a whole buffer to a file descriptor: `write(2)`
/// retried on EINTR and continued after a short write. Callers make their
/// own error from the `errno` it returns.
package enum FileDescriptorOutput {
    /// Writes every byte of `bytes` to `descriptor`.
    ///
    /// - Returns: nil when every byte was written, else the `errno` of the
    ///   write that failed.
    package static func writeAll(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32) -> Int32? {
        guard let base = bytes.baseAddress else { return nil }
        var offset = 0
        while offset < bytes.count {
            let count = Glibc.write(descriptor, base + offset, bytes.count - offset)
            if count < 0 {
                if errno == EINTR { continue }
                return errno
            }
            offset += count
        }
        return nil
    }

    /// The words of `code` (`strerror`), for messages.
    package static func reason(_ code: Int32) -> String {
        String(cString: strerror(code))
    }
}
