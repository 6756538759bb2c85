import CCrypto
import Foundation

/// The MD5 hash function of RFC 1321, computed incrementally.
///
/// MD5 is broken for security; Strata uses it only where a format names
/// files by it: a Day One export keeps each photo, recording, video and PDF
/// as `<md5>.<ext>`, and Day One finds them by that name.
///
/// ```swift
/// var hasher = MD5()
/// hasher.update(Array("abc".utf8))
/// let name = MD5.hex(hasher.finalize())  // 900150983cd24fb0d6963f7d28e17f72
/// ```
public struct MD5: MessageDigest, @unchecked Sendable {  // A C struct, copied by value.
    /// The length of an MD5 digest in bytes.
    public static let digestByteCount = 16

    /// libcrypto's state.
    private var context = MD5_CTX()

    /// Creates a hasher that has seen no bytes yet.
    public init() {
        MD5_Init(&context)
    }

    /// Feeds the bytes in a raw buffer.
    ///
    /// - Parameter bytes: The next bytes of the message.
    public mutating func update(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        MD5_Update(&context, base, bytes.count)
    }

    /// Returns the digest of the bytes fed so far; the hasher is unchanged.
    ///
    /// - Returns: The 16-byte MD5 digest.
    public func finalize() -> [UInt8] {
        var copy = context
        var digest = [UInt8](repeating: 0, count: Self.digestByteCount)
        digest.withUnsafeMutableBufferPointer { _ = MD5_Final($0.baseAddress, &copy) }
        return digest
    }
}
