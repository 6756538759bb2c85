import Foundation
import Testing

@testable import Strata
@testable import StrataValues

/// FIPS 180-4 examples (NIST CSRC "Example Algorithms") and padding edge cases.
struct SHA512Tests {
    @Test func testEmptyMessage() {
        #expect(
            hex(SHA512.hash([UInt8]()))
                == "cf83e1357eefb8bdf1542850d66d8007d620e4050b5715dc83f4a921d36ce9ce"
                + "47d0d13c5d85f2b0ff8318d2877eec2f63b931bd47417a81a538327af927da3e")
    }

    @Test func testOneBlockMessage() {
        #expect(
            hex(SHA512.hash(Array("abc".utf8)))
                == "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a"
                + "2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f")
    }

    @Test func testMessage448Bits() {
        let message = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"
        #expect(
            hex(SHA512.hash(Array(message.utf8)))
                == "204a8fc6dda82f0a0ced7beb8e08a41657c16ef468b228a8279be331a703c335"
                + "96fd15c13b1b07f9aa1d3bea57789ca031ad85c7a71dd70354ec631238ca3445")
    }

    @Test func testTwoBlockMessage896Bits() {
        let message =
            "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmno"
            + "ijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu"
        #expect(
            hex(SHA512.hash(Array(message.utf8)))
                == "8e959b75dae313da8cf4f72814fc143f8f7779c6eb9f7fa17299aeadb6889018"
                + "501d289e4900f7e4331b99dec4b5433ac7d329eeb6dd26545e96e55b874be909")
    }

    @Test func testOneMillionAFedInUnevenChunks() {
        var hasher = SHA512()
        let chunkSizes = [1, 127, 128, 129, 255, 1000, 4095, 13]
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
                == "e718483d0ce769644e2e42c7bc15b4638e1f98b13b2044285632a803afa973eb"
                + "de0ff244877ea60a4cb0432ce577c31beb009c5c2c49aa2e4eadb217ad8cc09b")
    }

    /// Lengths around the point where the length field no longer fits the
    /// last block (111/112) and around the block size (127/128).
    @Test func testPaddingBoundaries() {
        let expected: [Int: String] = [
            111: "fa9121c7b32b9e01733d034cfc78cbf67f926c7ed83e82200ef8681819692176"
                + "0b4beff48404df811b953828274461673c68d04e297b0eb7b2b4d60fc6b566a2",
            112: "c01d080efd492776a1c43bd23dd99d0a2e626d481e16782e75d54c2503b5dc32"
                + "bd05f0f1ba33e568b88fd2d970929b719ecbb152f58f130a407c8830604b70ca",
            127: "828613968b501dc00a97e08c73b118aa8876c26b8aac93df128502ab360f91ba"
                + "b50a51e088769a5c1eff4782ace147dce3642554199876374291f5d921629502",
            128: "b73d1929aa615934e61a871596b3f3b33359f42b8175602e89f7e06e5f658a24"
                + "3667807ed300314b95cacdd579f3e33abdfbe351909519a846d465c59582f321",
        ]
        for (length, digest) in expected {
            #expect(hex(SHA512.hash([UInt8](repeating: 0x61, count: length))) == digest)
        }
    }

    @Test func testEverySplitPointGivesTheOneShotDigest() {
        let message = (0..<300).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        let whole = SHA512.hash(message)
        for split in 0...message.count {
            var hasher = SHA512()
            hasher.update(message[..<split])
            hasher.update(message[split...])
            #expect(hasher.finalize() == whole)
        }
    }

    @Test func testDataRawBufferAndNonContiguousInputsAgree() {
        let message = (0..<10_000).map { UInt8(truncatingIfNeeded: $0 % 251) }
        let whole = SHA512.hash(message)
        var fromData = SHA512()
        fromData.update(Data(message))
        #expect(fromData.finalize() == whole)
        var fromBuffer = SHA512()
        message.withUnsafeBytes { fromBuffer.update($0) }
        #expect(fromBuffer.finalize() == whole)
        // A lazy map has no contiguous storage, so this takes the chunked path.
        var fromLazy = SHA512()
        fromLazy.update(message.lazy.map { $0 })
        #expect(fromLazy.finalize() == whole)
    }
}

/// Lower-case hexadecimal spelling of `bytes`.
private func hex(_ bytes: [UInt8]) -> String {
    bytes.map { String(format: "%02x", $0) }.joined()
}
