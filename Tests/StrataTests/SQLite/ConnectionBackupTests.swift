import Foundation
import Testing

@testable import Strata
@testable import StrataCore

/// ``Connection/copyContents(to:pagesPerStep:progress:)`` and
/// ``Connection/dataVersion``.
struct ConnectionBackupTests {
    @Test func testCopyReplacesTheContentUnderAConnectionHeldOpen() throws {
        let directory = try TemporaryDirectory()
        let source = try Connection(path: directory.file("a.sqlite").path)
        try source.setJournalMode(.wal)
        try source.execute("CREATE TABLE T(x INTEGER); INSERT INTO T VALUES (1), (2), (3)")
        let target = try Connection(path: directory.file("b.sqlite").path)
        try target.setJournalMode(.wal)
        try target.execute("CREATE TABLE Old(y TEXT)")
        let held = try Connection(path: directory.file("b.sqlite").path)
        #expect(try held.tableExists("Old"))

        var steps: [(Int32, Int32)] = []
        try source.copyContents(to: target, pagesPerStep: 1) { steps.append(($0, $1)) }

        #expect(try held.scalar("SELECT SUM(x) FROM T") == .integer(6))
        #expect(try !held.tableExists("Old"))
        #expect(steps.last.map { $0.0 == $0.1 } == true && steps.count >= 2)
        for connection in [held, target, source] { try connection.close() }
    }

    @Test func testACopyIntoAConnectionInsideATransactionFails() throws {
        let directory = try TemporaryDirectory()
        let source = try Connection(path: directory.file("a.sqlite").path)
        try source.execute("CREATE TABLE T(x INTEGER)")
        let target = try Connection(path: directory.file("b.sqlite").path)
        try target.execute("CREATE TABLE U(x INTEGER)")
        try target.execute("BEGIN IMMEDIATE")
        #expect(throws: SQLiteError.self) { try source.copyContents(to: target) }
        try target.execute("ROLLBACK")
        for connection in [target, source] { try connection.close() }
    }

    @Test func testCopyDatabaseTakesRowsThatAreOnlyInTheWAL() throws {
        let directory = try TemporaryDirectory()
        let source = try Connection(path: directory.file("a.sqlite").path)
        try source.setJournalMode(.wal)
        try source.execute("CREATE TABLE T(x INTEGER); INSERT INTO T VALUES (1)")
        _ = try source.walCheckpoint(truncate: true)
        // An empty WAL: copied as a file.
        try source.copyDatabase(to: directory.file("file.sqlite").path)
        // Rows only in the WAL: copied through it.
        try source.execute("INSERT INTO T VALUES (2)")
        try source.copyDatabase(to: directory.file("pages.sqlite").path)
        for (name, sum) in [("file.sqlite", 1), ("pages.sqlite", 3)] {
            let copy = try Connection(path: directory.file(name).path)
            #expect(try copy.scalar("SELECT SUM(x) FROM T") == .integer(Int64(sum)), "\(name)")
            #expect(try copy.integrityCheck() == ["ok"])
            try copy.close()
        }
        #expect(throws: (any Error).self) {
            try source.copyDatabase(to: directory.file("file.sqlite").path)  // Exists.
        }
        try source.close()
    }

    @Test func testDataVersionMovesOnlyForOtherConnectionsCommits() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("a.sqlite").path
        let one = try Connection(path: path)
        try one.execute("CREATE TABLE T(x INTEGER)")
        let two = try Connection(path: path)
        let start = try one.dataVersion
        try one.execute("INSERT INTO T VALUES (1)")
        #expect(try one.dataVersion == start)
        try two.execute("INSERT INTO T VALUES (2)")
        #expect(try one.dataVersion != start)
        for connection in [two, one] { try connection.close() }
    }
}
