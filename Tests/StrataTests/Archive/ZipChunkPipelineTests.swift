import Foundation
import Testing

@testable import Strata
@testable import StrataCore

struct ZipChunkPipelineTests {
    struct Refused: Error, Equatable {}

    @Test func testChunksReachTheWriterThreadWholeAndInOrder() throws {
        let received = LockedBytes()
        let pipeline = ZipChunkPipeline(depth: 2) { received.append($0) }
        var expected: [UInt8] = []
        for number in 0..<200 {
            var chunk = [UInt8](repeating: UInt8(number), count: 1000 + number)
            expected += chunk
            try pipeline.submit(&chunk)
            // The caller gets an empty buffer back, never the one it gave away.
            #expect(chunk.isEmpty)
        }
        try pipeline.finish()
        #expect(received.bytes == expected)
    }

    @Test func testTheWritersFailureReachesTheProducer() throws {
        let count = LockedBytes()
        let pipeline = ZipChunkPipeline(depth: 1) { chunk in
            count.append(chunk.prefix(1))
            if count.bytes.count == 3 { throw Refused() }
        }
        var thrown: Error?
        do {
            for _ in 0..<100 {
                var chunk = [UInt8](repeating: 7, count: 10)
                try pipeline.submit(&chunk)
            }
            try pipeline.finish()
        } catch {
            thrown = error
            pipeline.cancel()
        }
        #expect(thrown as? Refused == Refused())
        // Nothing is written after the failure.
        #expect(count.bytes.count == 3)
    }

    @Test func testAnEntryWrittenInBackgroundHoldsTheSameBytes() throws {
        let folder = try TemporaryDirectory()
        let url = folder.file("b.zip")
        let text = ZipWriterTests.text
        try ZipWriter.write(to: url) { zip in
            try zip.add(path: "lines.jsonl", inBackground: true) { sink in
                for number in 0..<50_000 { try sink.write("{\"n\":\(number)}\n") }
                // A write larger than a chunk, too.
                try sink.write(text)
            }
            try zip.add(path: "after.txt", bytes: Data("after".utf8))
        }
        var lines = Data()
        for number in 0..<50_000 { lines.append(contentsOf: "{\"n\":\(number)}\n".utf8) }
        let contents = try ZipWriterTests.contents(of: url)
        #expect(contents["lines.jsonl"] == lines + text)
        #expect(contents["after.txt"] == Data("after".utf8))
    }
}

/// Bytes appended from the writer thread, read from the test's.
private final class LockedBytes: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [UInt8] = []

    func append(_ bytes: some Sequence<UInt8>) {
        lock.lock()
        defer { lock.unlock() }
        stored += bytes
    }

    var bytes: [UInt8] {
        lock.lock()
        defer { lock.unlock() }
        return stored
    }
}
