// swift-format-ignore-file
// Each block is a verbatim copy of a doc example, laid out as the docs lay it out.

import Foundation
import Testing

@testable import Strata
@testable import StrataCore

// The examples of the Digest docs, as written there (DocExampleCoverageTests
// checks that each block is here); compiled, not run.
enum DigestDocExamples {
    /// From Sources/StrataValues/Digest/SHA512.swift.
    static func sHA512() throws {
        var hasher = SHA512()
        hasher.update(Array("ab".utf8))
        hasher.update(Array("c".utf8))
        let digest = hasher.finalize()   // ddaf35a1…
        _ = digest
    }

    /// From Sources/StrataValues/Digest/MessageDigest.swift.
    static func messageDigest() throws {
        let digest = MD5.hash(Data("abc".utf8))
        let name = MD5.hex(digest)   // 900150983cd24fb0d6963f7d28e17f72
        _ = name
    }

    /// From Sources/StrataValues/Digest/SHA256.swift.
    static func sHA256() throws {
        var hasher = SHA256()
        hasher.update(Array("ab".utf8))
        hasher.update(Array("c".utf8))
        let digest = hasher.finalize()   // ba7816bf…
        _ = digest
    }
}
