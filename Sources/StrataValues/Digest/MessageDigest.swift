import Foundation

/// A hash function computed incrementally in libcrypto: ``SHA256``,
/// ``SHA512`` and ``MD5``.
///
/// A conforming type feeds raw bytes and reads the digest; the other ways
/// to feed bytes, the one-shot ``hash(_:)`` and ``hex(_:)`` are written
/// once, here.
///
/// ```swift
/// let digest = MD5.hash(Data("abc".utf8))
/// let name = MD5.hex(digest)   // 900150983cd24fb0d6963f7d28e17f72
/// ```
public protocol MessageDigest {
    /// The length of a digest in bytes.
    static var digestByteCount: Int { get }

    /// Creates a hasher that has seen no bytes yet.
    init()

    /// Feeds the bytes in a raw buffer, read in place.
    ///
    /// - Parameter bytes: The next bytes of the message.
    mutating func update(_ bytes: UnsafeRawBufferPointer)

    /// Returns the digest of the bytes fed so far, without changing the
    /// hasher: more bytes may follow and a later call gives the digest of
    /// the longer message.
    func finalize() -> [UInt8]
}

extension MessageDigest {
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

    /// Hashes a whole message at once.
    ///
    /// - Parameter bytes: The message, such as a `Data` value or a byte array.
    /// - Returns: The digest of `bytes`.
    public static func hash(_ bytes: some Sequence<UInt8>) -> [UInt8] {
        var hasher = Self()
        hasher.update(bytes)
        return hasher.finalize()
    }

    /// A digest as lower-case hexadecimal digits, two per byte.
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
