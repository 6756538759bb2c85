import Foundation
import Testing

@testable import Strata
@testable import StrataValues

/// FIPS 180-4 examples (NIST CSRC "Example Algorithms") and padding edge cases.
struct SHA256Tests {
    @Test func testEmptyMessage() {
        #expect(
            hex(SHA256.hash([UInt8]()))
                == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    }

    @Test func testOneBlockMessage() {
        #expect(
            hex(SHA256.hash(Array("abc".utf8)))
                == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    @Test func testTwoBlockMessage448Bits() {
        let message = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"
        #expect(
            hex(SHA256.hash(Array(message.utf8)))
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    }

    @Test func testMessage896Bits() {
        let message =
            "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmno"
            + "ijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu"
        #expect(
            hex(SHA256.hash(Array(message.utf8)))
                == "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1")
    }

    @Test func testOneMillionAFedInUnevenChunks() {
        var hasher = SHA256()
        let chunkSizes = [1, 63, 64, 65, 127, 1000, 4095, 7]
        var remaining = 1_000_000
        var index = 0
        while remaining > 0 {
            let size = min(chunkSizes[index % chunkSizes.count], remaining)
            hasher.update([UInt8](repeating: 0x61, count: size))
            remaining -= size
            index += 1
        }
        #expect(
            hex(hasher.finalize())
                == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    /// Lengths around the point where the length field no longer fits the
    /// last block (55/56) and around the block size (63/64).
    @Test func testPaddingBoundaries() {
        let expected: [Int: String] = [
            55: "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318",
            56: "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a",
            63: "7d3e74a05d7db15bce4ad9ec0658ea98e3f06eeecf16b4c6fff2da457ddc2f34",
            64: "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb",
        ]
        for (length, digest) in expected {
            #expect(hex(SHA256.hash([UInt8](repeating: 0x61, count: length))) == digest)
        }
    }

    @Test func testEverySplitPointGivesTheOneShotDigest() {
        let message = (0..<200).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        let whole = SHA256.hash(message)
        for split in 0...message.count {
            var hasher = SHA256()
            hasher.update(message[..<split])
            hasher.update(message[split...])
            #expect(hasher.finalize() == whole)
        }
    }

    @Test func testDataRawBufferAndNonContiguousInputsAgree() {
        let message = (0..<10_000).map { UInt8(truncatingIfNeeded: $0 % 251) }
        let whole = SHA256.hash(message)
        var fromData = SHA256()
        fromData.update(Data(message))
        #expect(fromData.finalize() == whole)
        var fromBuffer = SHA256()
        message.withUnsafeBytes { fromBuffer.update($0) }
        #expect(fromBuffer.finalize() == whole)
        // A lazy map has no contiguous storage, so this takes the chunked path.
        var fromLazy = SHA256()
        fromLazy.update(message.lazy.map { $0 })
        #expect(fromLazy.finalize() == whole)
    }

    @Test func testFinalizeLeavesTheHasherUsable() {
        var hasher = SHA256()
        hasher.update(Array("ab".utf8))
        #expect(hasher.finalize() == SHA256.hash(Array("ab".utf8)))
        hasher.update(Array("c".utf8))
        #expect(
            hex(hasher.finalize())
                == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }
}

/// Lower-case hexadecimal spelling of `bytes`.
private func hex(_ bytes: [UInt8]) -> String {
    bytes.map { String(format: "%02x", $0) }.joined()
}
