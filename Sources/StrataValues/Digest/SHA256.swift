import CCrypto
import Foundation

/// The SHA-256 hash function of FIPS 180-4, computed incrementally.
///
/// Feed bytes with any of the `update` methods, as often as needed, then
/// read the 32-byte digest with ``finalize()`` (``MessageDigest`` has the
/// other ways to feed bytes and the one-shot ``MessageDigest/hash(_:)``). The compression runs in
/// libcrypto (Debian's `libssl-dev`), which uses the CPU's SHA instructions
/// where it has them: bundles hash every byte they carry, and portable code
/// ran at a tenth of that speed. Input is read straight from the caller's
/// memory, so hashing a large file in chunks allocates nothing per byte; a
/// hasher is a plain value (copying it copies its state).
///
/// ```swift
/// var hasher = SHA256()
/// hasher.update(Array("ab".utf8))
/// hasher.update(Array("c".utf8))
/// let digest = hasher.finalize()   // ba7816bf…
/// ```
public struct SHA256: MessageDigest, @unchecked Sendable {  // A C struct, copied by value.
    /// The length of a SHA-256 digest in bytes.
    public static let digestByteCount = 32

    /// libcrypto's state: the hash value, the partial block, the length.
    private var context = SHA256_CTX()

    /// Creates a hasher that has seen no bytes yet.
    ///
    /// - Returns: A hasher whose ``finalize()`` is the digest of the empty
    ///   message.
    public init() {
        SHA256_Init(&context)
    }

    // MARK: - Feeding bytes

    /// Feeds the bytes in a raw buffer.
    ///
    /// - Parameter bytes: The next bytes of the message.
    public mutating func update(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        SHA256_Update(&context, base, bytes.count)
    }

    // MARK: - Digest

    /// Returns the digest of the bytes fed so far.
    ///
    /// The hasher itself is not changed, so more bytes may follow and a
    /// later call gives the digest of the longer message.
    ///
    /// - Returns: The 32-byte SHA-256 digest.
    public func finalize() -> [UInt8] {
        var copy = context
        var digest = [UInt8](repeating: 0, count: Self.digestByteCount)
        digest.withUnsafeMutableBufferPointer { _ = SHA256_Final($0.baseAddress, &copy) }
        return digest
    }
}
