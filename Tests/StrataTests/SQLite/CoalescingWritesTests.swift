import Foundation
import Testing

@testable import Strata
@testable import StrataCore

/// Writes gathered by the coalescing VFS reach the file before SQLite reads
/// it again: a transaction far larger than the page cache (pages spilled,
/// then read back) ends in the same database the default VFS writes.
struct CoalescingWritesTests {
    /// Fills a new database at `path` through `vfs`, with a cache of 64
    /// pages, and reads its rows back before committing.
    static func fill(_ path: String, vfs: String?) throws -> (sum: Int64, check: String) {
        let connection = try Connection(path: path, mode: .readWriteCreate, vfs: vfs)
        defer { try? connection.close() }
        try connection.execute("PRAGMA cache_size = 64")
        try connection.execute("BEGIN IMMEDIATE")
        try connection.execute("CREATE TABLE t (k INTEGER PRIMARY KEY, v TEXT, n INTEGER)")
        try connection.execute("CREATE INDEX t_n ON t (n)")
        let insert = try connection.prepare("INSERT INTO t VALUES (?, ?, ?)")
        for key in 1...5_000 {
            try insert.bind(.integer(Int64(key)), at: 1)
            try insert.bind(.text(String(repeating: "x", count: key % 300)), at: 2)
            try insert.bind(.integer(Int64((key * 7919) % 1000)), at: 3)
            try insert.execute()
        }
        // Read back inside the transaction: spilled pages come from the file.
        let inside = try connection.scalar("SELECT sum(n + length(v)) FROM t")
        try connection.execute("COMMIT")
        let sum = try connection.scalar("SELECT sum(n + length(v)) FROM t")
        #expect(inside == sum)
        let check = try connection.scalar("PRAGMA integrity_check")
        return (sum?.int64Value ?? -1, check == .text("ok") ? "ok" : "\(String(describing: check))")
    }

    @Test func testALargeTransactionWritesTheSameDatabase() throws {
        let folder = try TemporaryDirectory()
        let name = try #require(CoalescingWrites.vfsName)
        let gathered = try Self.fill(folder.file("gathered.sqlite").path, vfs: name)
        let direct = try Self.fill(folder.file("direct.sqlite").path, vfs: nil)
        #expect(gathered.check == "ok")
        #expect(gathered.sum == direct.sum)
        #expect(gathered.sum > 0)
        // Another connection, through the default VFS, reads what was written.
        let reopened = try Connection(path: folder.file("gathered.sqlite").path, mode: .readOnly)
        defer { try? reopened.close() }
        #expect(try reopened.scalar("SELECT count(*) FROM t") == .integer(5_000))
        #expect(try reopened.scalar("PRAGMA integrity_check") == .text("ok"))
    }

    /// Writeback is started as the file grows (every 8 MiB written), not only
    /// by the sync at the end.
    @Test func testWritebackStartsWhileALargeTransactionWrites() throws {
        let folder = try TemporaryDirectory()
        let name = try #require(CoalescingWrites.vfsName)
        let connection = try Connection(
            path: folder.file("large.sqlite").path, mode: .readWriteCreate, vfs: name)
        defer { try? connection.close() }
        try connection.execute("PRAGMA cache_size = 64")
        try connection.execute("BEGIN IMMEDIATE")
        try connection.execute("CREATE TABLE t (k INTEGER PRIMARY KEY, v BLOB)")
        let before = CoalescingWrites.writebacksStarted
        // 24 MiB of pages through a 256 KiB cache: written while the
        // transaction is still open.
        try connection.execute(
            "WITH RECURSIVE n(k) AS (SELECT 1 UNION ALL SELECT k + 1 FROM n WHERE k < 384) "
                + "INSERT INTO t SELECT k, randomblob(65536) FROM n")
        #expect(CoalescingWrites.writebacksStarted - before >= 2)
        try connection.execute("COMMIT")
    }

    @Test func testTheVFSIsRegisteredOnceUnderItsName() {
        #expect(CoalescingWrites.vfsName == "strata-coalescing")
        #expect(CoalescingWrites.vfsName == CoalescingWrites.vfsName)
    }
}
