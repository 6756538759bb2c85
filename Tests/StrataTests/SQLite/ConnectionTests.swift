import Foundation
import Testing

@testable import Strata
@testable import StrataCore

struct ConnectionTests {
    @Test func testReadWriteCreateCreatesTheFile() throws {
        try TemporaryDatabase.withPath { path in
            let connection = try Connection(path: path)
            try connection.execute("CREATE TABLE T(x)")
            try connection.close()
            #expect(FileManager.default.fileExists(atPath: path))
        }
    }

    @Test func testReadWriteOnMissingFileFailsWithCantOpenNamingThePath() throws {
        try TemporaryDatabase.withPath { path in
            let error = try #require(throws: SQLiteError.self) {
                try Connection(path: path, mode: .readWrite)
            }
            #expect(error.code.primaryResultCode == .cantOpen)
            #expect(error.message.contains(path))
            #expect(!FileManager.default.fileExists(atPath: path))
        }
    }

    @Test func testReadOnlyConnectionRefusesWrites() throws {
        try TemporaryDatabase.withPath { path in
            let writer = try Connection(path: path)
            try writer.execute("CREATE TABLE T(x)")
            try writer.close()

            let reader = try Connection(path: path, mode: .readOnly)
            defer { try? reader.close() }
            #expect(reader.isReadOnly)
            #expect(try reader.scalar("SELECT count(*) FROM T") == .integer(0))
            let error = try #require(throws: SQLiteError.self) {
                try reader.execute("INSERT INTO T(x) VALUES (?)", [1])
            }
            #expect(error.code.primaryResultCode == .readOnly)
        }
    }

    @Test func testTextFileFailsWithNotADatabaseOnFirstQuery() throws {
        try TemporaryDatabase.withPath { path in
            let text = String(repeating: "This is a plain text file, not a database.\n", count: 40)
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
            let connection = try Connection(path: path, mode: .readWrite)
            defer { try? connection.close() }
            expectSQLiteError(.notADatabase) {
                try connection.scalar("SELECT count(*) FROM sqlite_master")
            }
        }
    }

    @Test func testExecuteRunsSeveralStatements() throws {
        try TemporaryDatabase.withConnection { connection in
            try connection.execute(
                """
                CREATE TABLE T(x); -- a comment
                INSERT INTO T(x) VALUES (1);
                INSERT INTO T(x) VALUES (2);
                """)
            #expect(try connection.scalar("SELECT sum(x) FROM T") == .integer(3))
        }
    }

    @Test func testExecuteReportsTheFailingStatementOfSeveral() throws {
        try TemporaryDatabase.withConnection { connection in
            let error = try #require(throws: SQLiteError.self) {
                try connection.execute("CREATE TABLE T(x); INSERT INTO Missing VALUES (1);")
            }
            #expect(error.message == "no such table: Missing")
            #expect(try connection.tableExists("T"))
        }
    }

    @Test func testPrepareRejectsSeveralStatementsButAllowsTrailingComment() throws {
        try TemporaryDatabase.withConnection { connection in
            expectSQLiteError(.misuse) {
                try connection.prepare("SELECT 1; SELECT 2")
            }
            expectSQLiteError(.misuse) {
                try connection.prepare("  -- nothing")
            }
            let statement = try connection.prepare("SELECT 1; -- done")
            #expect(try statement.step())
        }
    }

    @Test func testLastInsertRowIDAndChanges() throws {
        try TemporaryDatabase.withConnection { connection in
            try connection.execute("CREATE TABLE T(x)")
            try connection.execute("INSERT INTO T(x) VALUES (?)", [10])
            try connection.execute("INSERT INTO T(x) VALUES (?)", [20])
            #expect(connection.lastInsertRowID == 2)
            try connection.execute("UPDATE T SET x = x + 1")
            #expect(connection.changes == 2)
            #expect(connection.totalChanges == 4)
        }
    }

    @Test func testScalarIsNilWithoutRowAndNullForNullValue() throws {
        try TemporaryDatabase.withConnection { connection in
            try connection.execute("CREATE TABLE T(x)")
            #expect(try connection.scalar("SELECT x FROM T") == nil)
            #expect(try connection.scalar("SELECT NULL") == .null)
            #expect(try connection.scalar("SELECT ? + 1", [41]) == .integer(42))
        }
    }

    @Test func testCachedStatementIsHandedBackResetWithBindingsCleared() throws {
        try TemporaryDatabase.withConnection { connection in
            try connection.execute("CREATE TABLE T(x); INSERT INTO T VALUES (1), (2), (3);")
            let sql = "SELECT x, ? FROM T ORDER BY x"
            var firstHandle: OpaquePointer?
            do {
                let first = try connection.cachedStatement(sql)
                firstHandle = first.handle
                try first.bind(7, at: 1)
                #expect(try first.step())
                #expect(try first.step())
                #expect(first.int64(at: 0) == 2)
            }
            let second = try connection.cachedStatement(sql)
            #expect(second.handle == firstHandle)
            #expect(connection.cachedStatementCount == 1)
            #expect(try second.step())
            #expect(second.int64(at: 0) == 1)
            #expect(second.isNull(at: 1))
        }
    }

    @Test func testCachedStatementInUseIsNotSharedWithASecondCaller() throws {
        try TemporaryDatabase.withConnection { connection in
            let first = try connection.cachedStatement("SELECT 1")
            let second = try connection.cachedStatement("SELECT 1")
            #expect(first.handle != second.handle)
        }
    }

    @Test func testCloseFailsWithBusyWhileAStatementIsAliveAndSucceedsAfter() throws {
        try TemporaryDatabase.withPath { path in
            let connection = try Connection(path: path)
            var statement: Statement? = try connection.prepare("SELECT 1")
            expectSQLiteError(.busy) { try connection.close() }
            #expect(!connection.isClosed)
            #expect(statement != nil)
            statement = nil
            try connection.close()
            #expect(connection.isClosed)
            try connection.close()
        }
    }

    @Test func testReleasingAnUnclosedConnectionStillClosesItsHandle() throws {
        try TemporaryDatabase.withPath { path in
            var locker: Connection? = try Connection(path: path)
            try locker?.execute("CREATE TABLE T(x)")
            try locker?.execute("BEGIN IMMEDIATE")
            let other = try Connection(path: path)
            defer { try? other.close() }
            other.busyTimeout = 0
            expectSQLiteError(.busy) { try other.execute("BEGIN IMMEDIATE") }
            locker = nil  // deinit closes with sqlite3_close_v2 (and warns on stderr)
            try other.execute("BEGIN IMMEDIATE")
            try other.execute("ROLLBACK")
        }
    }

    @Test func testBusyTimeoutMakesASecondWriterFailWithBusy() throws {
        try TemporaryDatabase.withPath { path in
            let first = try Connection(path: path)
            let second = try Connection(path: path)
            defer {
                try? first.close()
                try? second.close()
            }
            #expect(first.busyTimeout == 5)
            second.busyTimeout = 0
            try first.execute("CREATE TABLE T(x)")
            try first.execute("BEGIN IMMEDIATE")
            expectSQLiteError(.busy) {
                try second.execute("BEGIN IMMEDIATE")
            }
            try first.execute("ROLLBACK")
        }
    }

    @Test func testTableExistsAndColumnsDescribeATable() throws {
        try TemporaryDatabase.withConnection { connection in
            try connection.execute(
                "CREATE TABLE ZITEM(Z_PK INTEGER PRIMARY KEY, ZNAME VARCHAR NOT NULL, ZDATA BLOB)")
            #expect(try connection.tableExists("ZITEM"))
            #expect(try connection.tableExists("zitem"))
            #expect(try !connection.tableExists("ZOTHER"))
            let columns = try connection.columns(ofTable: "ZITEM")
            #expect(
                columns == [
                    .init(
                        name: "Z_PK", declaredType: "INTEGER", isNotNull: false, primaryKeyIndex: 1),
                    .init(
                        name: "ZNAME", declaredType: "VARCHAR", isNotNull: true, primaryKeyIndex: 0),
                    .init(
                        name: "ZDATA", declaredType: "BLOB", isNotNull: false, primaryKeyIndex: 0),
                ])
            #expect(try connection.columns(ofTable: "ZOTHER").isEmpty)
        }
    }

    @Test func testCoreDataStoreFromFixturesOpensAndPassesIntegrityCheck() throws {
        let fixture = try #require(
            Bundle.module.url(
                forResource: "TestModel", withExtension: "sqlite",
                subdirectory: "Fixtures/coredata/bnr-sample"))
        try TemporaryDatabase.withPath { path in
            try FileManager.default.copyItem(at: fixture, to: URL(fileURLWithPath: path))
            let connection = try Connection(path: path, mode: .readWrite)
            defer { try? connection.close() }
            #expect(try connection.integrityCheck() == ["ok"])
            #expect(try connection.tableExists("Z_METADATA"))
            #expect(try connection.tableExists("Z_PRIMARYKEY"))
            let columns = try connection.columns(ofTable: "Z_PRIMARYKEY").map(\.name)
            #expect(columns.contains("Z_ENT"))
        }
    }

    /// An immutable open reads a WAL-mode file without creating `-wal` or
    /// `-shm`, and URI syntax in the file name stays part of the name.
    @Test func testImmutableOpenTouchesNoCompanionFilesAndEscapesTheName() throws {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("strata-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("odd ?name#1%20.sqlite").path
        let writer = try Connection(path: path)
        try writer.setPragma("journal_mode", "WAL")
        try writer.execute("CREATE TABLE t (x INTEGER); INSERT INTO t VALUES (42)")
        try writer.close()
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: folder.path) == [
                "odd ?name#1%20.sqlite"
            ])

        let reader = try Connection(path: path, mode: .immutable)
        #expect(try reader.scalar("SELECT x FROM t")?.int64Value == 42)
        #expect(throws: SQLiteError.self) { try reader.execute("INSERT INTO t VALUES (1)") }
        try reader.close()
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: folder.path) == [
                "odd ?name#1%20.sqlite"
            ])
    }
}
