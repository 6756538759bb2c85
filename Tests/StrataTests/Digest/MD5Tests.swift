import Foundation
import Testing

@testable import Strata
@testable import StrataValues

/// MD5 against RFC 1321's test suite, whole and in pieces.
struct MD5Tests {
    @Test func testDigestsOfRFC1321Suite() {
        let cases = [
            ("", "d41d8cd98f00b204e9800998ecf8427e"),
            ("abc", "900150983cd24fb0d6963f7d28e17f72"),
            ("message digest", "f96b697d7cb7938d525a2f31aaf161d0"),
            (
                "12345678901234567890123456789012345678901234567890123456789012345678901234567890",
                "57edf4a22be3c955ac49da2e2107b67a"
            ),
        ]
        for (text, digest) in cases {
            #expect(MD5.hex(MD5.hash(Data(text.utf8))) == digest, "\(text)")
        }
    }

    @Test func testPiecesGiveTheSameDigest() {
        var hasher = MD5()
        hasher.update(Data("message ".utf8))
        hasher.update(Data("digest".utf8))
        #expect(MD5.hex(hasher.finalize()) == "f96b697d7cb7938d525a2f31aaf161d0")
    }
}
