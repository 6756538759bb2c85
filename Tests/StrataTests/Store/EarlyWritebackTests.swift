import Foundation
import Testing

@testable import Strata

/// Writeback is started each time the file has grown by a step, not more
/// often.
@Suite struct EarlyWritebackTests {
    @Test func testWritebackStartsOncePerStepOfGrowth() throws {
        let folder = try TemporaryDirectory()
        let url = folder.file("growing")
        #expect(FileManager.default.createFile(atPath: url.path, contents: nil))
        let writeback = try #require(EarlyWriteback(path: url.path))
        let handle = try FileHandle(forWritingTo: url)
        defer { try? handle.close() }
        let megabyte = Data(repeating: 0x5A, count: 1 << 20)
        var starts: [Int64] = []
        for _ in 0..<20 {
            try handle.write(contentsOf: megabyte)
            if writeback.advance() { starts.append(Int64(try handle.offset())) }
        }
        #expect(starts == [8 << 20, 16 << 20])
    }

    @Test func testAFileThatCannotBeOpenedStartsNothing() throws {
        let folder = try TemporaryDirectory()
        #expect(EarlyWriteback(path: folder.file("missing").path) == nil)
    }
}
