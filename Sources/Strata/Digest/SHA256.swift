import Foundation

/// The SHA-256 hash function of FIPS 180-4, computed incrementally.
///
/// Feed bytes with any of the `update` methods, as often as needed, then
/// read the 32-byte digest with ``finalize()``. Input is consumed in 64-byte
/// blocks straight from the caller's memory; only a partial block is kept
/// between calls, so hashing a large file in chunks allocates nothing per
/// byte.
///
/// ```swift
/// var hasher = SHA256()
/// hasher.update(Array("ab".utf8))
/// hasher.update(Array("c".utf8))
/// let digest = hasher.finalize()   // ba7816bf…
/// ```
public struct SHA256: Sendable {
    /// The length of a SHA-256 digest in bytes.
    public static let digestByteCount = 32

    /// The length of a message block in bytes (FIPS 180-4 §5.1.1).
    static let blockByteCount = 64

    /// The hash value H, starting at H(0) (FIPS 180-4 §5.3.3).
    private var state: [UInt32] = SHA256.initialState
    /// Bytes of an incomplete block left over from earlier updates.
    private var pending: [UInt8] = []
    /// The number of message bytes fed so far.
    private var messageByteCount: UInt64 = 0

    /// Creates a hasher that has seen no bytes yet.
    ///
    /// - Returns: A hasher whose ``finalize()`` is the digest of the empty
    ///   message.
    public init() {
        pending.reserveCapacity(Self.blockByteCount)
    }

    // MARK: - Feeding bytes

    /// Feeds the bytes in a raw buffer.
    ///
    /// Whole blocks are compressed in place; only the tail of less than one
    /// block is copied.
    ///
    /// - Parameter bytes: The next bytes of the message.
    public mutating func update(_ bytes: UnsafeRawBufferPointer) {
        guard !bytes.isEmpty else { return }
        messageByteCount &+= UInt64(bytes.count)
        var offset = 0
        if !pending.isEmpty {
            let take = min(Self.blockByteCount - pending.count, bytes.count)
            pending.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[0..<take]))
            offset = take
            guard pending.count == Self.blockByteCount else { return }
            pending.withUnsafeBytes { Self.compress(&state, blocks: $0) }
            pending.removeAll(keepingCapacity: true)
        }
        let wholeBlocks = (bytes.count - offset) / Self.blockByteCount * Self.blockByteCount
        if wholeBlocks > 0 {
            let blocks = UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + wholeBlocks])
            Self.compress(&state, blocks: blocks)
            offset += wholeBlocks
        }
        if offset < bytes.count {
            pending.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[offset...]))
        }
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
        var copy = self
        // Padding (FIPS 180-4 §5.1.1): a 1 bit, zeros up to 56 mod 64 bytes,
        // then the message length in bits as a big-endian 64-bit integer.
        let bitCount = messageByteCount &* 8
        let zeroCount = (Self.blockByteCount * 2 - 9 - pending.count) % Self.blockByteCount
        var padding: [UInt8] = [0x80] + [UInt8](repeating: 0, count: zeroCount)
        for shift in stride(from: 56, through: 0, by: -8) {
            padding.append(UInt8(truncatingIfNeeded: bitCount >> UInt64(shift)))
        }
        copy.update(padding)
        var digest: [UInt8] = []
        digest.reserveCapacity(Self.digestByteCount)
        for word in copy.state {
            for shift in stride(from: 24, through: 0, by: -8) {
                digest.append(UInt8(truncatingIfNeeded: word >> UInt32(shift)))
            }
        }
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

    // MARK: - Compression (FIPS 180-4 §6.2.2)

    /// Runs the compression function over each 64-byte block of `blocks`,
    /// whose length is a multiple of the block size.
    private static func compress(_ state: inout [UInt32], blocks: UnsafeRawBufferPointer) {
        // Unsafe buffers skip bounds checks in release builds; every index
        // below stays within 0..<64 by construction.
        roundConstants.withUnsafeBufferPointer { k in
            withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { w in
                var h0 = state[0], h1 = state[1], h2 = state[2], h3 = state[3]
                var h4 = state[4], h5 = state[5], h6 = state[6], h7 = state[7]
                var base = 0
                while base + blockByteCount <= blocks.count {
                    for t in 0..<16 {
                        let offset = base + 4 * t
                        let word = blocks.loadUnaligned(fromByteOffset: offset, as: UInt32.self)
                        w[t] = UInt32(bigEndian: word)
                    }
                    for t in 16..<64 {
                        let s0 = rotr(w[t - 15], 7) ^ rotr(w[t - 15], 18) ^ (w[t - 15] &>> 3)
                        let s1 = rotr(w[t - 2], 17) ^ rotr(w[t - 2], 19) ^ (w[t - 2] &>> 10)
                        w[t] = w[t - 16] &+ s0 &+ w[t - 7] &+ s1
                    }
                    var a = h0, b = h1, c = h2, d = h3, e = h4, f = h5, g = h6, h = h7
                    for t in 0..<64 {
                        let sum1 = rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)
                        let choice = (e & f) ^ (~e & g)
                        let t1 = h &+ sum1 &+ choice &+ k[t] &+ w[t]
                        let sum0 = rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)
                        let majority = (a & b) ^ (a & c) ^ (b & c)
                        let t2 = sum0 &+ majority
                        h = g
                        g = f
                        f = e
                        e = d &+ t1
                        d = c
                        c = b
                        b = a
                        a = t1 &+ t2
                    }
                    h0 &+= a
                    h1 &+= b
                    h2 &+= c
                    h3 &+= d
                    h4 &+= e
                    h5 &+= f
                    h6 &+= g
                    h7 &+= h
                    base += blockByteCount
                }
                state = [h0, h1, h2, h3, h4, h5, h6, h7]
            }
        }
    }

    /// Rotates `x` right by `n` bits (ROTR, FIPS 180-4 §3.2).
    private static func rotr(_ x: UInt32, _ n: UInt32) -> UInt32 {
        (x &>> n) | (x &<< (32 &- n))
    }

    // MARK: - Constants (FIPS 180-4 §4.2.2, §5.3.3)

    /// H(0): the first 32 bits of the fractional parts of the square roots
    /// of the first 8 primes.
    private static let initialState: [UInt32] = [
        0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
        0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
    ]

    /// K: the first 32 bits of the fractional parts of the cube roots of the
    /// first 64 primes.
    private static let roundConstants: [UInt32] = [
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5,
        0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
        0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3,
        0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
        0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc,
        0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
        0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7,
        0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
        0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
        0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
        0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3,
        0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
        0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5,
        0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
        0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208,
        0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
    ]
}
