import Foundation

/// The SHA-512 hash function of FIPS 180-4, computed incrementally.
///
/// Feed bytes with any of the `update` methods, as often as needed, then
/// read the 64-byte digest with ``finalize()``. Input is consumed in 128-byte
/// blocks straight from the caller's memory; only a partial block is kept
/// between calls, so hashing a large file in chunks allocates nothing per
/// byte.
///
/// ```swift
/// var hasher = SHA512()
/// hasher.update(Array("ab".utf8))
/// hasher.update(Array("c".utf8))
/// let digest = hasher.finalize()   // ddaf35a1…
/// ```
public struct SHA512: Sendable {
    /// The length of a SHA-512 digest in bytes.
    public static let digestByteCount = 64

    /// The length of a message block in bytes (FIPS 180-4 §5.1.2).
    static let blockByteCount = 128

    /// The hash value H, starting at H(0) (FIPS 180-4 §5.3.5).
    private var state: [UInt64] = SHA512.initialState
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
    /// - Returns: The 64-byte SHA-512 digest.
    public func finalize() -> [UInt8] {
        var copy = self
        // Padding (FIPS 180-4 §5.1.2): a 1 bit, zeros up to 112 mod 128 bytes,
        // then the message length in bits as a big-endian 128-bit integer,
        // whose top 64 bits are the 3 bits shifted out of the byte count.
        let bitCount = messageByteCount &* 8
        let zeroCount = (Self.blockByteCount * 2 - 17 - pending.count) % Self.blockByteCount
        var padding: [UInt8] = [0x80] + [UInt8](repeating: 0, count: zeroCount)
        let highBits = messageByteCount >> 61
        for shift in stride(from: 56, through: 0, by: -8) {
            padding.append(UInt8(truncatingIfNeeded: highBits >> UInt64(shift)))
        }
        for shift in stride(from: 56, through: 0, by: -8) {
            padding.append(UInt8(truncatingIfNeeded: bitCount >> UInt64(shift)))
        }
        copy.update(padding)
        var digest: [UInt8] = []
        digest.reserveCapacity(Self.digestByteCount)
        for word in copy.state {
            for shift in stride(from: 56, through: 0, by: -8) {
                digest.append(UInt8(truncatingIfNeeded: word >> UInt64(shift)))
            }
        }
        return digest
    }

    /// Hashes a whole message at once.
    ///
    /// - Parameter bytes: The message, such as a `Data` value or a byte array.
    /// - Returns: The 64-byte SHA-512 digest of `bytes`.
    public static func hash(_ bytes: some Sequence<UInt8>) -> [UInt8] {
        var hasher = SHA512()
        hasher.update(bytes)
        return hasher.finalize()
    }

    // MARK: - Compression (FIPS 180-4 §6.4.2)

    /// Runs the compression function over each 128-byte block of `blocks`,
    /// whose length is a multiple of the block size.
    private static func compress(_ state: inout [UInt64], blocks: UnsafeRawBufferPointer) {
        // Unsafe buffers skip bounds checks in release builds; every index
        // below stays within 0..<80 by construction.
        roundConstants.withUnsafeBufferPointer { k in
            withUnsafeTemporaryAllocation(of: UInt64.self, capacity: 80) { w in
                var h0 = state[0], h1 = state[1], h2 = state[2], h3 = state[3]
                var h4 = state[4], h5 = state[5], h6 = state[6], h7 = state[7]
                var base = 0
                while base + blockByteCount <= blocks.count {
                    for t in 0..<16 {
                        let offset = base + 8 * t
                        let word = blocks.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                        w[t] = UInt64(bigEndian: word)
                    }
                    for t in 16..<80 {
                        let s0 = rotr(w[t - 15], 1) ^ rotr(w[t - 15], 8) ^ (w[t - 15] &>> 7)
                        let s1 = rotr(w[t - 2], 19) ^ rotr(w[t - 2], 61) ^ (w[t - 2] &>> 6)
                        w[t] = w[t - 16] &+ s0 &+ w[t - 7] &+ s1
                    }
                    var a = h0, b = h1, c = h2, d = h3, e = h4, f = h5, g = h6, h = h7
                    for t in 0..<80 {
                        let sum1 = rotr(e, 14) ^ rotr(e, 18) ^ rotr(e, 41)
                        let choice = (e & f) ^ (~e & g)
                        let t1 = h &+ sum1 &+ choice &+ k[t] &+ w[t]
                        let sum0 = rotr(a, 28) ^ rotr(a, 34) ^ rotr(a, 39)
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
    private static func rotr(_ x: UInt64, _ n: UInt64) -> UInt64 {
        (x &>> n) | (x &<< (64 &- n))
    }

    // MARK: - Constants (FIPS 180-4 §4.2.3, §5.3.5)

    /// H(0): the first 64 bits of the fractional parts of the square roots
    /// of the first 8 primes.
    private static let initialState: [UInt64] = [
        0x6a09e667f3bcc908, 0xbb67ae8584caa73b, 0x3c6ef372fe94f82b, 0xa54ff53a5f1d36f1,
        0x510e527fade682d1, 0x9b05688c2b3e6c1f, 0x1f83d9abfb41bd6b, 0x5be0cd19137e2179,
    ]

    /// K: the first 64 bits of the fractional parts of the cube roots of the
    /// first 80 primes.
    private static let roundConstants: [UInt64] = [
        0x428a2f98d728ae22, 0x7137449123ef65cd, 0xb5c0fbcfec4d3b2f, 0xe9b5dba58189dbbc,
        0x3956c25bf348b538, 0x59f111f1b605d019, 0x923f82a4af194f9b, 0xab1c5ed5da6d8118,
        0xd807aa98a3030242, 0x12835b0145706fbe, 0x243185be4ee4b28c, 0x550c7dc3d5ffb4e2,
        0x72be5d74f27b896f, 0x80deb1fe3b1696b1, 0x9bdc06a725c71235, 0xc19bf174cf692694,
        0xe49b69c19ef14ad2, 0xefbe4786384f25e3, 0x0fc19dc68b8cd5b5, 0x240ca1cc77ac9c65,
        0x2de92c6f592b0275, 0x4a7484aa6ea6e483, 0x5cb0a9dcbd41fbd4, 0x76f988da831153b5,
        0x983e5152ee66dfab, 0xa831c66d2db43210, 0xb00327c898fb213f, 0xbf597fc7beef0ee4,
        0xc6e00bf33da88fc2, 0xd5a79147930aa725, 0x06ca6351e003826f, 0x142929670a0e6e70,
        0x27b70a8546d22ffc, 0x2e1b21385c26c926, 0x4d2c6dfc5ac42aed, 0x53380d139d95b3df,
        0x650a73548baf63de, 0x766a0abb3c77b2a8, 0x81c2c92e47edaee6, 0x92722c851482353b,
        0xa2bfe8a14cf10364, 0xa81a664bbc423001, 0xc24b8b70d0f89791, 0xc76c51a30654be30,
        0xd192e819d6ef5218, 0xd69906245565a910, 0xf40e35855771202a, 0x106aa07032bbd1b8,
        0x19a4c116b8d2d0c8, 0x1e376c085141ab53, 0x2748774cdf8eeb99, 0x34b0bcb5e19b48a8,
        0x391c0cb3c5c95a63, 0x4ed8aa4ae3418acb, 0x5b9cca4f7763e373, 0x682e6ff3d6b2b8a3,
        0x748f82ee5defb2fc, 0x78a5636f43172f60, 0x84c87814a1f0ab72, 0x8cc702081a6439ec,
        0x90befffa23631e28, 0xa4506cebde82bde9, 0xbef9a3f7b2c67915, 0xc67178f2e372532b,
        0xca273eceea26619c, 0xd186b8c721c0c207, 0xeada7dd6cde0eb1e, 0xf57d4f7fee6ed178,
        0x06f067aa72176fba, 0x0a637dc5a2c898a6, 0x113f9804bef90dae, 0x1b710b35131c471b,
        0x28db77f523047d84, 0x32caab7b40c72493, 0x3c9ebe0a15c9bebc, 0x431d67c49c100d4c,
        0x4cc5d4becb3e42b6, 0x597f299cfc657e2a, 0x5fcb6fab3ad6faec, 0x6c44198c4a475817,
    ]
}
