import Foundation
import Testing

@testable import Strata
@testable import StrataCore

struct StatementTests {
    @Test func testTypedBindsAndReadsRoundTrip() throws {
        try TemporaryDatabase.withConnection { connection in
            try connection.execute("CREATE TABLE T(i, r, t, b, n)")
            let insert = try connection.prepare("INSERT INTO T VALUES (?, ?, ?, ?, ?)")
            try insert.bind(Int64(-7), at: 1)
            try insert.bind(0.25, at: 2)
            try insert.bind("naïve ✓", at: 3)
            try insert.bind(Data([9, 8]), at: 4)
            try insert.bindNull(at: 5)
            try insert.execute()

            let select = try connection.prepare("SELECT i, r, t, b, n FROM T")
            #expect(try select.step())
            #expect(select.columnCount == 5)
            #expect(select.columnNames == ["i", "r", "t", "b", "n"])
            #expect(select.int64(at: 0) == -7)
            #expect(select.double(at: 1) == 0.25)
            #expect(select.text(at: 2) == "naïve ✓")
            #expect(select.blob(at: 3) == Data([9, 8]))
            #expect(select.text(at: 4) == nil)
            #expect(select.blob(at: 4) == nil)
            #expect(select.isNull(at: 4))
            #expect(select.columnType(0) == .integer)
            #expect(select.columnType(1) == .real)
            #expect(select.columnType(2) == .text)
            #expect(select.columnType(3) == .blob)
            #expect(select.columnType(4) == .null)
            #expect(try !select.step())
        }
    }

    @Test func testEmptyStringAndEmptyDataAreNotNull() throws {
        try TemporaryDatabase.withConnection { connection in
            let select = try connection.prepare("SELECT ?, ?, typeof(?1), typeof(?2)")
            try select.bind("", at: 1)
            try select.bind(Data(), at: 2)
            #expect(try select.step())
            #expect(select.text(at: 0) == "")
            #expect(select.blob(at: 1) == Data())
            #expect(select.text(at: 2) == "text")
            #expect(select.text(at: 3) == "blob")
        }
    }

    @Test func testNamedParametersBindWithOrWithoutPrefix() throws {
        try TemporaryDatabase.withConnection { connection in
            let select = try connection.prepare("SELECT :a, @b, $c")
            try select.bind(1, named: ":a")
            try select.bind("two", named: "b")
            try select.bind(3.0, named: "c")
            #expect(try select.step())
            #expect(select.values() == [1, "two", 3.0])
            expectSQLiteError(.range) { try select.bind(.null, named: "missing") }
        }
    }

    @Test func testBindWithWrongArgumentCountFailsWithRange() throws {
        try TemporaryDatabase.withConnection { connection in
            let select = try connection.prepare("SELECT ?, ?")
            expectSQLiteError(.range) { try select.bind([1]) }
            expectSQLiteError(.range) { try select.bind(1, at: 3) }
        }
    }

    @Test func testForEachRowVisitsEveryRowAndResets() throws {
        try TemporaryDatabase.withConnection { connection in
            try connection.execute("CREATE TABLE T(x); INSERT INTO T VALUES (1), (2), (3);")
            let select = try connection.prepare("SELECT x FROM T WHERE x >= ? ORDER BY x")
            try select.bind([2])
            var first: [Int64] = []
            try select.forEachRow { first.append($0.int64(at: 0)) }
            var second: [Int64] = []
            try select.forEachRow { second.append($0.int64(at: 0)) }
            #expect(first == [2, 3])
            #expect(second == [2, 3])
        }
    }

    @Test func testStepErrorResetsSoStatementCanRunAgain() throws {
        try TemporaryDatabase.withConnection { connection in
            try connection.execute("CREATE TABLE T(x UNIQUE)")
            let insert = try connection.prepare("INSERT INTO T(x) VALUES (?)")
            try insert.execute([1])
            expectSQLiteError(.constraintUnique) { try insert.execute([1]) }
            try insert.execute([2])
            #expect(try connection.scalar("SELECT count(*) FROM T") == .integer(2))
        }
    }

    @Test func testStatementKeepsItsConnectionAlive() throws {
        try TemporaryDatabase.withPath { path in
            var statement: Statement?
            do {
                let connection = try Connection(path: path)
                try connection.execute("CREATE TABLE T(x); INSERT INTO T VALUES (5);")
                statement = try connection.prepare("SELECT x FROM T")
            }
            do {
                let select = try #require(statement)
                #expect(try select.step())
                #expect(select.int64(at: 0) == 5)
            }
            let connection = try #require(statement?.connection)
            statement = nil
            try connection.close()
        }
    }
}
