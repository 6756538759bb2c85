import Testing

@testable import Strata
@testable import StrataCore

struct ConnectionTransactionsTests {
    private struct Failure: Error {}

    private func count(_ connection: Connection) throws -> Int64? {
        try connection.scalar("SELECT count(*) FROM T")?.int64Value
    }

    private func withTable(_ body: (Connection) throws -> Void) throws {
        try TemporaryDatabase.withConnection { connection in
            try connection.execute("CREATE TABLE T(x UNIQUE)")
            try body(connection)
        }
    }

    @Test func testTransactionCommitsWhenBodyReturns() throws {
        try withTable { connection in
            let result = try connection.inTransaction {
                #expect(connection.isInTransaction)
                try connection.execute("INSERT INTO T(x) VALUES (?)", [1])
                try connection.execute("INSERT INTO T(x) VALUES (?)", [2])
                return "done"
            }
            #expect(result == "done")
            #expect(!connection.isInTransaction)
            #expect(try count(connection) == 2)
        }
    }

    @Test func testTransactionRollsBackWhenBodyThrows() throws {
        try withTable { connection throws in
            #expect(throws: Failure.self) {
                try connection.inTransaction(.deferred) {
                    try connection.execute("INSERT INTO T(x) VALUES (?)", [1])
                    throw Failure()
                }
            }
            #expect(!connection.isInTransaction)
            #expect(try count(connection) == 0)
        }
    }

    @Test func testTransactionRollsBackOnSQLiteErrorAndRethrowsIt() throws {
        try withTable { connection throws in
            expectSQLiteError(.constraintUnique) {
                try connection.inTransaction(.exclusive) {
                    try connection.execute("INSERT INTO T(x) VALUES (?)", [1])
                    try connection.execute("INSERT INTO T(x) VALUES (?)", [1])
                }
            }
            #expect(!connection.isInTransaction)
            #expect(try count(connection) == 0)
        }
    }

    @Test func testBodyErrorWinsWhenSQLiteAlreadyEndedTheTransaction() throws {
        try withTable { connection in
            #expect(throws: Failure.self) {
                try connection.inTransaction {
                    try connection.execute("INSERT INTO T(x) VALUES (?)", [1])
                    try connection.execute("ROLLBACK")
                    throw Failure()
                }
            }
            #expect(!connection.isInTransaction)
        }
    }

    @Test func testNestedSavepointRollbackKeepsOuterWork() throws {
        try withTable { connection in
            try connection.inTransaction {
                try connection.execute("INSERT INTO T(x) VALUES (?)", [1])
                try connection.inSavepoint {
                    try connection.execute("INSERT INTO T(x) VALUES (?)", [2])
                    #expect(throws: Failure.self) {
                        try connection.inSavepoint {
                            try connection.execute("INSERT INTO T(x) VALUES (?)", [3])
                            throw Failure()
                        }
                    }
                    #expect(connection.isInTransaction)
                }
            }
            let values = try connection.prepare("SELECT x FROM T ORDER BY x")
            var read: [Int64] = []
            try values.forEachRow { read.append($0.int64(at: 0)) }
            #expect(read == [1, 2])
        }
    }

    @Test func testSavepointOutsideTransactionCommitsOrRollsBack() throws {
        try withTable { connection in
            try connection.inSavepoint {
                try connection.execute("INSERT INTO T(x) VALUES (?)", [1])
            }
            #expect(!connection.isInTransaction)
            expectSQLiteError(.constraint) {
                try connection.inSavepoint {
                    try connection.execute("INSERT INTO T(x) VALUES (?)", [2])
                    try connection.execute("INSERT INTO T(x) VALUES (?)", [1])
                }
            }
            #expect(!connection.isInTransaction)
            #expect(try count(connection) == 1)
        }
    }

    @Test func testTransactionsDoNotNest() throws {
        try withTable { connection in
            try connection.inTransaction {
                expectSQLiteError(.error) {
                    try connection.inTransaction {}
                }
                #expect(connection.isInTransaction)
            }
        }
    }
}
