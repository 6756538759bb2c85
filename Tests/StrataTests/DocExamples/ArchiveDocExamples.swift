// swift-format-ignore-file
// Each block is a verbatim copy of a doc example, laid out as the docs lay it out.

import Foundation
import Testing

@testable import Strata
@testable import StrataCore

// The examples of the Archive docs, as written there (DocExampleCoverageTests
// checks that each block is here); compiled, not run.
enum ArchiveDocExamples {
    /// From Sources/StrataCore/Archive/CompressionError.swift.
    static func compressionError(blob: Data) throws {
        do {
            _ = try RawDeflate.inflate(blob, limit: 1 << 20)
        } catch let error as CompressionError {
            print(error)  // "Compression error -3: invalid block type"
        }
    }

    /// From Sources/StrataCore/Archive/ArchiveError.swift.
    static func archiveError(url: URL) throws {
        do {
            _ = try ZipReader(contentsOf: url)
        } catch ArchiveError.symlink {
            print("links are not allowed in a bundle")
        } catch let error as ArchiveError where error.code == .hardLink {
            print(error)
        }
    }

    /// From Sources/StrataCore/Archive/RawDeflate.swift.
    static func rawDeflate() throws {
        let packed = try RawDeflate.deflate(Data("hello".utf8))
        let unpacked = try RawDeflate.inflate(packed, limit: 1 << 20)
        _ = unpacked
    }
}
