import Foundation
import Testing

@testable import Strata
@testable import StrataCore
@testable import StrataMigration
@testable import StrataSchema
@testable import StrataStore

/// Runs a plan's SQL on an in-memory database laid out for the older version
/// and checks that the tables, columns and indexes are then exactly those of
/// the newer version's layout, and that the rows moved where they belong.
/// (This only proves the SQL; running plans on stores is the executor's job.)
struct MigrationPlanSQLTests {
    typealias M = MigrationTestModels

    /// A database with the tables of `model` and the given rows.
    private func database(_ model: Model, rows: [String] = []) throws -> Connection {
        let connection = try Connection(path: ":memory:")
        for sql in StoreLayout(model: model).createStatements + rows {
            try connection.execute(sql)
        }
        let layout = StoreLayout(model: model)
        for entity in layout.entities {
            try connection.execute(
                "INSERT INTO Z_PRIMARYKEY (Z_ENT, Z_NAME, Z_SUPER, Z_MAX) VALUES (?, ?, ?, ?)",
                [
                    .integer(Int64(entity.number)), .text(entity.name),
                    .integer(Int64(entity.superNumber)), .integer(entity.superNumber == 0 ? 50 : 0),
                ])
        }
        return connection
    }

    private func apply(_ plan: MigrationPlan, to connection: Connection) throws {
        for statement in plan.statements {
            try statement.execute(on: connection)
        }
    }

    /// Table → sorted "COLUMN TYPE" list, and the index names.
    private func shape(of connection: Connection) throws -> [String: [String]] {
        var shape: [String: [String]] = [:]
        let names = try connection.prepare(
            "SELECT type, name FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'")
        try names.forEachRow { row in
            let (kind, name) = (row.text(at: 0) ?? "", row.text(at: 1) ?? "")
            if kind == "index" {
                shape["(indexes)", default: []].append(name)
            } else {
                shape[name] = try connection.columns(ofTable: name)
                    .map { "\($0.name) \($0.declaredType)" }.sorted()
            }
        }
        shape["(indexes)"]?.sort()
        return shape
    }

    private func rows(_ connection: Connection, _ sql: String) throws -> [[SQLiteValue]] {
        var rows: [[SQLiteValue]] = []
        try connection.prepare(sql).forEachRow { rows.append($0.values()) }
        return rows
    }

    private func expectLayout(of connection: Connection, is model: Model) throws {
        let reference = try database(model)
        defer { try? reference.close() }  // In memory: nothing to keep.
        #expect(try shape(of: connection) == shape(of: reference))
    }

    @Test func testBookmarksV3ToV4KeepsFavoritesAndTheirOrder() throws {
        let v3 = try #require(FixtureModels.bookmarks(3))
        let v4 = try #require(FixtureModels.bookmarks(4))
        let connection = try database(
            v3,
            rows: [
                "INSERT INTO ZBOOKMARKENTITY (Z_PK, Z_ENT, Z_OPT, ZISFOLDER, ZUUID) "
                    + "VALUES (1, 1, 1, 1, 'f')",
                "INSERT INTO ZBOOKMARKENTITY (Z_PK, Z_ENT, Z_OPT, ZISFOLDER, ZUUID, "
                    + "ZFAVORITEFOLDER, Z_FOK_FAVORITEFOLDER) VALUES (2, 1, 1, 0, 'a', 1, 3072)",
                "INSERT INTO ZBOOKMARKENTITY (Z_PK, Z_ENT, Z_OPT, ZISFOLDER, ZUUID, "
                    + "ZFAVORITEFOLDER, Z_FOK_FAVORITEFOLDER) VALUES (3, 1, 1, 0, 'b', 1, 2048)",
                "INSERT INTO ZBOOKMARKENTITY (Z_PK, Z_ENT, Z_OPT, ZISFOLDER, ZUUID) "
                    + "VALUES (4, 1, 1, 0, 'c')",
            ])
        defer { try? connection.close() }  // In memory: nothing to keep.
        try apply(MigrationPlan(from: v3, to: v4), to: connection)
        try expectLayout(of: connection, is: v4)
        #expect(
            try rows(connection, "SELECT * FROM Z_1FAVORITES ORDER BY Z_FOK_1FAVORITES") == [
                [1, 3, 2048], [1, 2, 3072],
            ])
        #expect(try rows(connection, "SELECT Z_PK, ZUUID FROM ZBOOKMARKENTITY").count == 4)
    }

    @Test func testRenamesRenumberingAndDefaultsRunTogether() throws {
        let from = M.model(
            1,
            [M.book([M.attribute("title"), M.attribute("isbn"), M.attribute("year", .integer16)])])
        var volume = M.book([
            M.attribute("name", renamedFrom: "title"), M.attribute("year", .integer64),
            M.attribute("pages", .integer32, optional: false, default: .literal(.integer(10))),
        ])
        volume.name = "Volume"
        volume.renamedFrom = "Book"
        let to = M.model(2, [Entity(name: "Aardvark", attributes: [M.attribute("x")]), volume])
        let connection = try database(
            from,
            rows: [
                "INSERT INTO ZBOOK (Z_PK, Z_ENT, Z_OPT, ZTITLE, ZISBN, ZYEAR) "
                    + "VALUES (7, 1, 3, 'Emma', 'x', 1815)"
            ])
        defer { try? connection.close() }  // In memory: nothing to keep.
        let plan = MigrationPlan(from: from, to: to)
        try apply(plan, to: connection)
        try expectLayout(of: connection, is: to)
        #expect(
            try rows(connection, "SELECT Z_PK, Z_ENT, Z_OPT, ZNAME, ZYEAR, ZPAGES FROM ZVOLUME")
                == [
                    [7, 2, 3, "Emma", 1815, 10]
                ])
        #expect(
            try rows(connection, "SELECT * FROM Z_PRIMARYKEY ORDER BY Z_ENT") == [
                [1, "Aardvark", 0, 0], [2, "Volume", 0, 50],
            ])
    }

    @Test func testToManyToToOneKeepsTheLowestKey() throws {
        let from = M.model(1, M.authorsAndBooks(authorToMany: true))
        let connection = try database(
            from,
            rows: [
                "INSERT INTO ZAUTHOR (Z_PK, Z_ENT, Z_OPT, ZNAME) "
                    + "VALUES (1, 1, 1, 'A'), (2, 1, 1, 'B')",
                "INSERT INTO ZBOOK (Z_PK, Z_ENT, Z_OPT, ZTITLE) VALUES (5, 2, 1, 'T')",
                "INSERT INTO Z_1BOOKS (Z_1AUTHOR, Z_2BOOKS) VALUES (2, 5), (1, 5)",
            ])
        defer { try? connection.close() }  // In memory: nothing to keep.
        let to = M.model(2, M.authorsAndBooks())
        try apply(MigrationPlan(from: from, to: to), to: connection)
        try expectLayout(of: connection, is: to)
        #expect(try rows(connection, "SELECT Z_PK, ZAUTHOR FROM ZBOOK") == [[5, 1]])
    }

    @Test func testNewParentMovesRowsToItsTable() throws {
        let from = M.model(1, [M.book()])
        let item = Entity(name: "Item", attributes: [M.attribute("added", .date)])
        var book = M.book()
        book.parent = "Item"
        let to = M.model(2, [book, item])
        let connection = try database(
            from, rows: ["INSERT INTO ZBOOK (Z_PK, Z_ENT, Z_OPT, ZTITLE) VALUES (3, 1, 1, 'T')"])
        defer { try? connection.close() }  // In memory: nothing to keep.
        let plan = MigrationPlan(from: from, to: to)
        #expect(
            plan.summary == [
                "inferred add-entity Item", "inferred renumber-entity Book",
                "inferred change-parent Book",
            ])
        try apply(plan, to: connection)
        try expectLayout(of: connection, is: to)
        // Item is 2, Book 1 → Item 1, Book 2 (child of 1).
        #expect(try rows(connection, "SELECT Z_PK, Z_ENT, ZTITLE FROM ZITEM") == [[3, 2, "T"]])
        #expect(
            try rows(connection, "SELECT * FROM Z_PRIMARYKEY ORDER BY Z_ENT") == [
                [1, "Item", 0, 50], [2, "Book", 1, 0],
            ])
    }
}
