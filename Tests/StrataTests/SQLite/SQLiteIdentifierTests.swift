import Testing

@testable import Strata
@testable import StrataCore

struct SQLiteIdentifierTests {
    @Test func testQuotedWrapsInDoubleQuotesAndDoublesEmbeddedQuotes() {
        #expect(SQLiteIdentifier.quoted("Z_PK") == #""Z_PK""#)
        #expect(SQLiteIdentifier.quoted(#"a"b"#) == #""a""b""#)
        #expect(SQLiteIdentifier.quoted("") == #""""#)
    }

    @Test func testTableWithEmbeddedQuoteCanBeCreatedAndRead() throws {
        try TemporaryDatabase.withConnection { connection in
            let table = SQLiteIdentifier.quoted(#"a"b"#)
            let column = SQLiteIdentifier.quoted("x; DROP TABLE y")
            try connection.execute("CREATE TABLE \(table)(\(column) TEXT)")
            try connection.execute("INSERT INTO \(table)(\(column)) VALUES (?)", ["v"])
            #expect(try connection.tableExists(#"a"b"#))
            #expect(try connection.scalar("SELECT \(column) FROM \(table)") == "v")
            #expect(try connection.columns(ofTable: #"a"b"#).map(\.name) == ["x; DROP TABLE y"])
        }
    }

    @Test func testIsPlainAcceptsOnlyLettersDigitsAndUnderscores() {
        #expect(SQLiteIdentifier.isPlain("journal_mode"))
        #expect(SQLiteIdentifier.isPlain("_x9"))
        #expect(!SQLiteIdentifier.isPlain("9x"))
        #expect(!SQLiteIdentifier.isPlain(""))
        #expect(!SQLiteIdentifier.isPlain("a b"))
        #expect(!SQLiteIdentifier.isPlain("wal; DROP TABLE t"))
        #expect(!SQLiteIdentifier.isPlain("é"))
    }
}
