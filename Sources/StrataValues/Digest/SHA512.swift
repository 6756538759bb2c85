import CCrypto
import Foundation

/// The SHA-512 hash function of FIPS 180-4, computed incrementally in
/// libcrypto (``MessageDigest`` has the other ways to feed bytes).
///
/// A store's metadata carries `NSStoreModelVersionHashesDigest`, the
/// SHA-512 digest of its model's entity version hashes
/// (``Model/versionHashesDigest``).
///
/// ```swift
/// var hasher = SHA512()
/// hasher.update(Array("ab".utf8))
/// hasher.update(Array("c".utf8))
/// let digest = hasher.finalize()   // ddaf35a1…
/// ```
public struct SHA512: MessageDigest, @unchecked Sendable {  // A C struct, copied by value.
    /// The length of a SHA-512 digest in bytes.
    public static let digestByteCount = 64

    /// libcrypto's state: the hash value, the partial block, the length.
    private var context = SHA512_CTX()

    /// Creates a hasher that has seen no bytes yet.
    public init() {
        SHA512_Init(&context)
    }

    /// Feeds the bytes in a raw buffer.
    ///
    /// - Parameter bytes: The next bytes of the message.
    public mutating func update(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        SHA512_Update(&context, base, bytes.count)
    }

    /// Returns the digest of the bytes fed so far; the hasher is unchanged.
    ///
    /// - Returns: The 64-byte SHA-512 digest.
    public func finalize() -> [UInt8] {
        var copy = context
        var digest = [UInt8](repeating: 0, count: Self.digestByteCount)
        digest.withUnsafeMutableBufferPointer { _ = SHA512_Final($0.baseAddress, &copy) }
        return digest
    }
}
