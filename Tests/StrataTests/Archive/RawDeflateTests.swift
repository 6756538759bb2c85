import Foundation
import Testing

@testable import Strata
@testable import StrataCore

struct RawDeflateTests {
    /// Bytes that compress well but span several 64 KB chunks.
    static let sample = Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0 % 251 + $0 / 997) })

    @Test func testRoundTripRestoresTheBytes() throws {
        let packed = try RawDeflate.deflate(Self.sample)
        #expect(packed.count < Self.sample.count)
        #expect(try RawDeflate.inflate(packed, limit: Self.sample.count) == Self.sample)
    }

    @Test func testRoundTripOfEmptyAndIncompressibleData() throws {
        #expect(try RawDeflate.inflate(RawDeflate.deflate(Data()), limit: 0) == Data())
        var generator = SystemRandomNumberGenerator()
        let noise = Data((0..<100_000).map { _ in UInt8.random(in: 0...255, using: &generator) })
        let packed = try RawDeflate.deflate(noise, level: 9)
        #expect(try RawDeflate.inflate(packed, limit: noise.count) == noise)
        #expect(try RawDeflate.inflate(RawDeflate.deflate(noise, level: 0), limit: .max) == noise)
    }

    /// `python3 -c 'import zlib; c = zlib.compressobj(6, 8, -15);
    /// print((c.compress(b"hello hello hello") + c.flush()).hex())'`
    @Test func testInflatesBytesWrittenByAnotherDeflater() throws {
        let packed = Data([
            0xcb, 0x48, 0xcd, 0xc9, 0xc9, 0x57, 0xc8, 0x40, 0x90, 0x00,
        ])
        #expect(try RawDeflate.inflate(packed, limit: 100) == Data("hello hello hello".utf8))
    }

    @Test func testCorruptInputThrows() throws {
        // Block type 3 is reserved in RFC 1951.
        let error = try #require(throws: CompressionError.self) {
            try RawDeflate.inflate(Data([0xff, 0xff, 0xff, 0xff]), limit: 1000)
        }
        #expect(error.code == -3)
        #expect(error.description.hasPrefix("Compression error -3: "))
    }

    @Test func testTruncatedInputThrows() throws {
        let packed = try RawDeflate.deflate(Self.sample)
        for length in [0, 1, packed.count / 2, packed.count - 1] {
            #expect(throws: CompressionError.self) {
                try RawDeflate.inflate(packed.prefix(length), limit: Self.sample.count)
            }
        }
    }

    @Test func testOutputBeyondTheLimitThrows() throws {
        let bomb = try RawDeflate.deflate(Data(count: 10_000_000))
        #expect(bomb.count < 20_000)
        let error = try #require(throws: CompressionError.self) {
            try RawDeflate.inflate(bomb, limit: 1_000_000)
        }
        #expect(error.message.contains("limit"))
        // Exactly at the limit is allowed.
        #expect(try RawDeflate.inflate(bomb, limit: 10_000_000).count == 10_000_000)
    }
}
