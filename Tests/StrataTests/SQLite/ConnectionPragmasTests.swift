import Foundation
import Testing

@testable import Strata
@testable import StrataCore

struct ConnectionPragmasTests {
    @Test func testIntegrityCheckReturnsOkForASoundFile() throws {
        try TemporaryDatabase.withConnection { connection in
            try connection.execute("CREATE TABLE T(x UNIQUE); INSERT INTO T VALUES (1), (2);")
            #expect(try connection.integrityCheck() == ["ok"])
        }
    }

    @Test func testWALJournalModeCanBeSetAndCheckpointed() throws {
        try TemporaryDatabase.withPath { path in
            let connection = try Connection(path: path)
            defer { try? connection.close() }
            #expect(try connection.journalMode == .delete)
            #expect(try connection.setJournalMode(.wal) == .wal)
            #expect(try connection.journalMode == .wal)
            try connection.execute("CREATE TABLE T(x); INSERT INTO T VALUES (1);")
            #expect(FileManager.default.fileExists(atPath: path + "-wal"))
            let result = try connection.walCheckpoint(truncate: true)
            #expect(result.logFrames == 0)
        }
    }

    @Test func testUserVersionRoundTrips() throws {
        try TemporaryDatabase.withConnection { connection in
            #expect(try connection.userVersion == 0)
            try connection.setUserVersion(7)
            #expect(try connection.userVersion == 7)
            #expect(try connection.pragma("user_version") == .integer(7))
        }
    }

    @Test func testSetPragmaAcceptsIdentifiersAndIntegers() throws {
        try TemporaryDatabase.withConnection { connection in
            try connection.setPragma("synchronous", "NORMAL")
            #expect(try connection.pragma("synchronous") == .integer(1))
            try connection.setPragma("cache_size", "-4000")
            #expect(try connection.pragma("cache_size") == .integer(-4000))
        }
    }

    @Test func testSetPragmaRejectsTextThatIsNotIdentifierOrInteger() throws {
        try TemporaryDatabase.withConnection { connection in
            try connection.execute("CREATE TABLE T(x)")
            expectSQLiteError(.misuse) {
                try connection.setPragma("user_version", "1; DROP TABLE T")
            }
            expectSQLiteError(.misuse) {
                try connection.setPragma("user_version = 1; DROP TABLE T; --", "1")
            }
            expectSQLiteError(.misuse) { try connection.pragma("table_info(T)") }
            #expect(try connection.tableExists("T"))
            #expect(try connection.userVersion == 0)
        }
    }

    @Test func testForeignKeysAreOff() throws {
        try TemporaryDatabase.withConnection { connection throws in
            #expect(try connection.pragma("foreign_keys") == .integer(0))
        }
    }
}
