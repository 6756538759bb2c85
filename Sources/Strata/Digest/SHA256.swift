import CCrypto
import Foundation

/// The SHA-256 hash function of FIPS 180-4, computed incrementally.
///
/// Feed bytes with any of the `update` methods, as often as needed, then
/// read the 32-byte digest with ``finalize()``. The compression runs in
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
public struct SHA256: @unchecked Sendable {  // A C struct of integers, copied by value.
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

    /// Feeds the bytes of a `Data` value.
    ///
    /// - Parameter data: The next bytes of the message.
    public mutating func update(_ data: Data) {
        data.withUnsafeBytes { update($0) }
    }

    /// Feeds a sequence of bytes, such as an array or a string's UTF-8 view.
    ///
    /// Contiguous sequences are hashed in place; others are copied in chunks
    /// of a few kilobytes.
    ///
    /// - Parameter bytes: The next bytes of the message.
    public mutating func update(_ bytes: some Sequence<UInt8>) {
        let done: Void? = bytes.withContiguousStorageIfAvailable {
            update(UnsafeRawBufferPointer($0))
        }
        guard done == nil else { return }
        var chunk: [UInt8] = []
        chunk.reserveCapacity(4096)
        for byte in bytes {
            chunk.append(byte)
            if chunk.count == 4096 {
                chunk.withUnsafeBytes { update($0) }
                chunk.removeAll(keepingCapacity: true)
            }
        }
        chunk.withUnsafeBytes { update($0) }
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
        digest.withUnsafeMutableBufferPointer { SHA256_Final($0.baseAddress, &copy) }
        return digest
    }

    /// Hashes a whole message at once.
    ///
    /// - Parameter bytes: The message, such as a `Data` value or a byte array.
    /// - Returns: The 32-byte SHA-256 digest of `bytes`.
    public static func hash(_ bytes: some Sequence<UInt8>) -> [UInt8] {
        var hasher = SHA256()
        hasher.update(bytes)
        return hasher.finalize()
    }

    /// A digest as 64 lower-case hexadecimal digits.
    ///
    /// - Parameter digest: The bytes of a digest (any length).
    public static func hex(_ digest: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(digest.count * 2)
        for byte in digest {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
