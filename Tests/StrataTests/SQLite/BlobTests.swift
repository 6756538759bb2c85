import Foundation
import Testing

@testable import Strata
@testable import StrataCore

struct BlobTests {
    @Test func testZeroBlobFilledInPiecesReadsBackInChunks() throws {
        let database = try Connection(path: ":memory:")
        defer { try? database.close() }
        try database.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, data BLOB)")
        let bytes = Data((0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        do {
            let insert = try database.prepare("INSERT INTO t (id, data) VALUES (5, ?)")
            try insert.bindZeroBlob(count: bytes.count, at: 1)
            try insert.execute()
        }
        do {
            let blob = try Blob(database, table: "t", column: "data", rowID: 5, writable: true)
            #expect(blob.count == bytes.count)
            for start in stride(from: 0, to: bytes.count, by: 30_000) {
                let piece = bytes[start..<min(start + 30_000, bytes.count)]
                try piece.withUnsafeBytes { try blob.write($0, at: start) }
            }
        }
        var read = Data()
        var chunks = 0
        try Blob(database, table: "t", column: "data", rowID: 5)
            .forEachChunk(from: 10, chunkSize: 4096) { chunk in
                read.append(contentsOf: chunk)
                chunks += 1
            }
        #expect(read == bytes.dropFirst(10))
        #expect(chunks == (bytes.count - 10 + 4095) / 4096)
        #expect(throws: SQLiteError.self) {
            try Blob(database, table: "t", column: "data", rowID: 6)
        }
    }
}
