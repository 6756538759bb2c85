// swift-format-ignore-file
// Each block is a verbatim copy of a doc example, laid out as the docs lay it out.

import Foundation
import Testing

@testable import Strata
@testable import StrataCore
@testable import StrataStore

// The examples of the SQLite docs, as written there (DocExampleCoverageTests
// checks that each block is here); compiled, not run.
enum SQLiteDocExamples {
    /// From Sources/StrataCore/SQLite/ResultCode.swift.
    static func resultCode(connection: Connection) throws {
        do {
            try connection.execute("INSERT INTO T(x) VALUES (?)", [1])
        } catch ResultCode.constraintUnique {
            // duplicate
        } catch ResultCode.constraint {
            // any other constraint
        }
    }

    /// From Sources/StrataCore/SQLite/Statement.swift.
    static func statement(connection: Connection, pairs: [(SQLiteValue, SQLiteValue)]) throws {
        let insert = try connection.cachedStatement("INSERT INTO T(a, b) VALUES (?, ?)")
        for (a, b) in pairs {
            try insert.bind(a, at: 1)
            try insert.bind(b, at: 2)
            try insert.execute()
        }
    }

    /// From Sources/StrataCore/SQLite/Statement.swift.
    static func statement2(statement: Statement) throws -> [String] {
        var names: [String] = []
        try statement.forEachRow { row in
            names.append(row.text(at: 0) ?? "")
        }
        return names
    }

    /// From Sources/StrataCore/SQLite/Connection.swift.
    static func connection(path: String) throws {
        let connection = try Connection(path: path)
        try connection.execute("CREATE TABLE T(x INTEGER)")
        try connection.execute("INSERT INTO T(x) VALUES (?)", [42])
        let x = try connection.scalar("SELECT x FROM T")  // .integer(42)
        try connection.close()
        _ = x
    }

    /// From Sources/StrataCore/SQLite/SQLiteValue.swift.
    static func sQLiteValue(connection: Connection) throws {
        try connection.execute("INSERT INTO T(a, b, c) VALUES (?, ?, ?)", [1, 2.5, "x"])
    }

    /// From Sources/StrataCore/SQLite/Blob.swift.
    static func blob(connection: Connection) throws {
        var hasher = SHA256()
        let blob = try Blob(connection, table: "ZMEDIUM", column: "ZDATA", rowID: 12)
        try blob.forEachChunk(from: 1) { chunk in hasher.update(chunk) }
    }

    /// From Sources/StrataCore/SQLite/Connection+Backup.swift.
    static func connectionBackup(store: Store) throws {
        let copy = try Connection(path: "copy.sqlite")
        try store.connection.copyContents(to: copy)
    }

    /// From Sources/StrataCore/SQLite/SQLiteIdentifier.swift.
    static func sQLiteIdentifier(table: String) throws {
        let sql = "SELECT \(SQLiteIdentifier.quoted("Z_PK")) FROM \(SQLiteIdentifier.quoted(table))"
        _ = sql
    }

    /// From Sources/StrataCore/SQLite/Connection+Transactions.swift.
    static func connectionTransactions(connection: Connection) throws {
        try connection.inTransaction {
            try connection.execute("INSERT INTO T(x) VALUES (?)", [1])
            try connection.execute("INSERT INTO T(x) VALUES (?)", [2])
        }
    }

    /// From Sources/StrataCore/SQLite/SQLiteError.swift.
    static func sQLiteError(connection: Connection) throws {
        do {
            try connection.execute("INSERT INTO T(x) VALUES (?)", [1])
        } catch SQLiteError.constraint {
            // UNIQUE, NOT NULL, CHECK...: any constraint
        }
    }

    /// From Sources/StrataCore/SQLite/Connection+Functions.swift.
    static func connectionFunctions(connection: Connection) throws {
        try connection.registerFunction("double_it", argumentCount: 1) { arguments in
            .integer(arguments.int64(at: 0) * 2)
        }
    }
}
