import Foundation
import Testing

@testable import Strata
@testable import StrataSchema
@testable import StrataStore

/// The row layer: ``EntityRowLayout`` says which column holds what, and
/// ``RowWriter`` writes rows, versions and join rows with it.
struct RowWriterTests {
    private static func layout(_ entity: String, of fixture: ContextFixture) throws
        -> EntityRowLayout
    {
        let mapping = try StoreMapping(model: fixture.model, store: fixture.store)
        let tables = try #require(mapping.entities[entity])
        return EntityRowLayout(entity: entity, model: fixture.model, tables: tables)
    }

    @Test func testOrderColumnsComeLastAndAWholeRowUpdateLeavesThem() throws {
        let fixture = try ContextFixture(model: GraphModels.playlists())
        let song = try Self.layout("Song", of: fixture)
        #expect(song.columns == ["ZNAME", "ZPLAYLIST", "Z_FOK_PLAYLIST"])
        #expect(song.rowColumnCount == 2)
        let toOne = try #require(song.toOnes.first)
        #expect(toOne.foreignKey == 1 && toOne.entity == nil && toOne.order == 2)
        #expect(!song.updateSQL.contains("Z_FOK_PLAYLIST"))
        #expect(
            song.insertSQL
                == "INSERT INTO \"ZSONG\" (\"Z_PK\", \"Z_ENT\", \"Z_OPT\", \"ZNAME\", \"ZPLAYLIST\", "
                + "\"Z_FOK_PLAYLIST\") VALUES (?, ?, ?, ?, ?, ?)")
        #expect(EntityRowLayout.parameter(ofColumn: toOne.order ?? 0) == 6)
    }

    @Test func testEntitiesSharingATableInsertTheirOwnEntityNumbers() throws {
        // Circle (2) and Oval (3) add nothing to Shape (1): one table, one
        // column list, one INSERT text.
        let model = Model(
            name: "Ovals", version: 1,
            entities: [
                Entity(name: "Shape", attributes: [GraphModels.name()]),
                Entity(name: "Circle", parent: "Shape"),
                Entity(name: "Oval", parent: "Shape"),
            ])
        let fixture = try ContextFixture(model: model)
        let circle = try Self.layout("Circle", of: fixture)
        let square = try Self.layout("Oval", of: fixture)
        #expect(circle.insertSQL == square.insertSQL)
        let writer = RowWriter(connection: fixture.store.connection)
        for (layout, name) in [(circle, "c"), (square, "s"), (circle, "c2")] {
            let statement = try writer.insertStatement(for: layout)
            try statement.bind(try writer.keyCounter(for: layout).next(), at: 1)
            try statement.bind(.text(name), at: EntityRowLayout.parameter(ofColumn: 0))
            try statement.execute()
        }
        try writer.finish()
        #expect(
            try fixture.integerRows("SELECT Z_PK, Z_ENT, Z_OPT FROM ZSHAPE ORDER BY Z_PK")
                == [[1, 2, 1], [2, 3, 1], [3, 2, 1]])
        #expect(try fixture.integer("SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = 'Shape'") == 3)
        try fixture.expectSound()
    }

    @Test func testBufferedJoinRowsOfBothSidesLandInTheirOwnColumns() throws {
        let fixture = try ContextFixture(model: GraphModels.library())
        for entity in ["Author", "Author", "Book"] { _ = try fixture.context.insert(entity) }
        try fixture.context.save()
        let mapping = try StoreMapping(model: fixture.model, store: fixture.store)
        let books = try #require(mapping.entities["Author"]?.toMany["books"])
        let authors = try #require(mapping.entities["Book"]?.toMany["authors"])
        let writer = RowWriter(connection: fixture.store.connection)
        writer.buffersJoins = true
        // Author 1 → book 1 from the author's side, book 1 → author 2 from
        // the book's: one table, written from its two columns.
        try writer.join(books, source: 1, destination: 1, order: nil)
        try writer.join(authors, source: 1, destination: 2, order: nil)
        #expect(try fixture.rows("Z_1BOOKS") == 0)  // Waiting for the flush.
        try writer.finish()
        #expect(
            try fixture.integerRows("SELECT Z_1AUTHORS, Z_2BOOKS FROM Z_1BOOKS ORDER BY 1")
                == [[1, 1], [2, 1]])
        try fixture.expectSound()
    }

    @Test func testUpdatesChangeTheVersionAsAsked() throws {
        let fixture = try ContextFixture(model: GraphModels.library())
        try fixture.context.insert("Author").set("name", "a")
        try fixture.context.save()
        let author = try Self.layout("Author", of: fixture)
        let writer = RowWriter(connection: fixture.store.connection)
        try writer.update(author, key: 1, columns: [(0, .text("b"))])
        #expect(try fixture.integer("SELECT Z_OPT FROM ZAUTHOR") == 2)
        try writer.update(author, key: 1, columns: [(0, .text("c"))], version: .keep)
        #expect(try fixture.integer("SELECT Z_OPT FROM ZAUTHOR") == 2)
        try writer.update(author, key: 1, columns: [], version: .set(7))
        #expect(try fixture.integer("SELECT Z_OPT FROM ZAUTHOR") == 7)
        #expect(
            try fixture.store.connection.scalar("SELECT ZNAME FROM ZAUTHOR") == .text("c"))
    }

    @Test func testADryRunWritesNothingButHandsOutKeys() throws {
        let fixture = try ContextFixture(model: GraphModels.library())
        try fixture.context.insert("Author").set("name", "a")
        try fixture.context.save()
        let author = try Self.layout("Author", of: fixture)
        let writer = RowWriter(connection: fixture.store.connection, writes: false)
        #expect(try writer.keyCounter(for: author).next() == 2)
        try writer.update(author, key: 1, columns: [(0, .text("b"))])
        try writer.delete(1, from: author.table)
        try writer.finish()
        #expect(try fixture.store.connection.scalar("SELECT ZNAME FROM ZAUTHOR") == .text("a"))
        #expect(try fixture.integer("SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = 'Author'") == 1)
    }
}
