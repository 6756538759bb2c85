import Testing

@testable import Strata
@testable import StrataCore

struct SQLiteErrorTests {
    /// Creates `T(x UNIQUE)` holding one row with `x = 'secret-value'`.
    private func withUniqueTable(_ body: (Connection) throws -> Void) throws {
        try TemporaryDatabase.withConnection { connection in
            try connection.execute("CREATE TABLE T(x TEXT UNIQUE)")
            try connection.execute("INSERT INTO T(x) VALUES (?)", ["secret-value"])
            try body(connection)
        }
    }

    @Test func testDescriptionHasStablePrefixMessageAndSQL() throws {
        try withUniqueTable { connection in
            let error = try #require(throws: SQLiteError.self) {
                try connection.execute("INSERT INTO T(x) VALUES (?)", ["secret-value"])
            }
            #expect(
                error.description
                    == "SQLite error 19: UNIQUE constraint failed: T.x - while executing "
                    + "`INSERT INTO T(x) VALUES (?)`")
        }
    }

    @Test func testDescriptionOmitsSQLPartWithoutSQL() {
        let error = SQLiteError(code: .busy, message: "database is locked")
        #expect(error.description == "SQLite error 5: database is locked")
    }

    @Test func testErrorTextDoesNotContainBoundValues() throws {
        try withUniqueTable { connection in
            let error = try #require(throws: SQLiteError.self) {
                try connection.execute("INSERT INTO T(x) VALUES (?)", ["secret-value"])
            }
            #expect(!error.description.contains("secret-value"))
            #expect(!String(describing: error).contains("secret-value"))
        }
    }

    @Test func testExtendedCodeIsKept() throws {
        try withUniqueTable { connection in
            let error = try #require(throws: SQLiteError.self) {
                try connection.execute("INSERT INTO T(x) VALUES (?)", ["secret-value"])
            }
            #expect(error.code == .constraintUnique)
            #expect(error.code.primaryResultCode == .constraint)
            #expect(error.message == "UNIQUE constraint failed: T.x")
            #expect(error.sql == "INSERT INTO T(x) VALUES (?)")
        }
    }

    @Test func testCatchSQLiteErrorConstraintMatchesUniqueViolation() throws {
        try withUniqueTable { connection in
            var caught = false
            do {
                try connection.execute("INSERT INTO T(x) VALUES (?)", ["secret-value"])
            } catch SQLiteError.busy {
                Issue.record("a constraint error matched .busy")
            } catch SQLiteError.constraint {
                caught = true
            }
            #expect(caught)
        }
    }

    @Test func testCatchResultCodeMatchesPrimaryAndExactExtendedCode() throws {
        try withUniqueTable { connection in
            let insert = { try connection.execute("INSERT INTO T(x) VALUES (?)", ["secret-value"]) }
            var matched: [String] = []
            do { try insert() } catch ResultCode.constraintNotNull {
                matched.append("notNull")
            } catch ResultCode.constraintUnique {
                matched.append("unique")
            } catch {}
            do {
                try insert()
            } catch ResultCode.constraint {
                matched.append("constraint")
            } catch {}
            #expect(matched == ["unique", "constraint"])
        }
    }
}
