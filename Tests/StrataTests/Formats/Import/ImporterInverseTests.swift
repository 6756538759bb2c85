import Foundation
import Testing

@testable import Strata
@testable import StrataFormats
@testable import StrataSchema

/// The importer writes both sides of every inverse pair, as `Context.save`
/// does, and a link by value takes no object from another owner (issue 27,
/// points 3 and 6).
struct ImporterInverseTests {
    /// People with one passport each (a one-to-one pair), found by name and
    /// number; and recipes whose ingredients belong to one recipe each.
    static let schema = """
        {"format": "strata-schema/1", "model": "Pairs", "version": 1, "entities": {
          "Person": {
            "uniquenessConstraints": [["name"]],
            "attributes": {"name": {"type": "string"}},
            "relationships": {
              "passport": {"destination": "Passport", "inverse": "holder", "optional": true,
                           "relatedBy": "number"}}},
          "Passport": {
            "uniquenessConstraints": [["number"]],
            "attributes": {"number": {"type": "string"}},
            "relationships": {
              "holder": {"destination": "Person", "inverse": "passport", "optional": true}}},
          "Dish": {
            "uniquenessConstraints": [["name"]],
            "attributes": {"name": {"type": "string"}},
            "relationships": {
              "parts": {"destination": "Part", "inverse": "dish", "toMany": true,
                        "optional": true, "relatedBy": "name"}}},
          "Part": {
            "attributes": {"name": {"type": "string"}},
            "relationships": {
              "dish": {"destination": "Dish", "inverse": "parts", "optional": true}}}}}
        """

    static func fixture() throws -> ImportFixture {
        try ImportFixture(model: try SchemaDecoder().decode(Data(schema.utf8), file: "Pairs.json"))
    }

    /// The store's references, as `unarchive` checks them.
    static func problems(_ fixture: ImportFixture) throws -> [String] {
        try fixture.store.checkRelationships(model: fixture.model).map(\.description)
    }

    @Test func testNestedToOneSetsTheInverse() throws {
        // The reproduction: a recipe with a nested image.
        let fixture = try ImportFixture("Recipes")
        _ = try fixture.run(
            ArrayRecordReader([
                [("name", .text("Soup")), ("image", .object([("image", .text("AAAA"))]))]
            ]),
            ImportOptions(entity: "Recipe"))
        #expect(try fixture.rows("SELECT Z_PK, ZIMAGE FROM ZRECIPE") == [["1", "1"]])
        #expect(try fixture.rows("SELECT Z_PK, ZRECIPE FROM ZIMAGE") == [["1", "1"]])
        #expect(try Self.problems(fixture) == [])
    }

    @Test func testNestedOneToOneUpsertLeavesTheFormerPartner() throws {
        let fixture = try Self.fixture()
        func person(_ name: String, _ number: String) -> [(String, RecordValue)] {
            [("name", .text(name)), ("passport", .object([("number", .text(number))]))]
        }
        _ = try fixture.run(
            ArrayRecordReader([person("Ann", "P1")]), ImportOptions(entity: "Person"))
        // Ann gets another passport: P1 no longer names her.
        _ = try fixture.run(
            ArrayRecordReader([person("Ann", "P2")]), ImportOptions(entity: "Person"))
        // Bob takes P2 (an object of the store, by its unique number): Ann has none.
        _ = try fixture.run(
            ArrayRecordReader([person("Bob", "P2")]), ImportOptions(entity: "Person"))
        #expect(
            try fixture.rows(
                "SELECT p.ZNUMBER, h.ZNAME FROM ZPASSPORT p LEFT JOIN ZPERSON h ON h.Z_PK = p.ZHOLDER ORDER BY p.ZNUMBER"
            ) == [["P1", "NULL"], ["P2", "Bob"]])
        #expect(
            try fixture.rows(
                "SELECT h.ZNAME, p.ZNUMBER FROM ZPERSON h LEFT JOIN ZPASSPORT p ON p.Z_PK = h.ZPASSPORT ORDER BY h.ZNAME"
            ) == [["Ann", "NULL"], ["Bob", "P2"]])
        #expect(try Self.problems(fixture) == [])
    }

    @Test func testOneToOneByValueSetsBothSidesAndTakesNoPassportFromItsHolder() throws {
        let fixture = try Self.fixture()
        _ = try fixture.run(
            ArrayRecordReader([
                [("name", .text("Ann")), ("passport", .text("P1"))],
                // A reference to a later record: linked after the input.
                [("name", .text("Cy")), ("passport", .text("P3"))],
            ]), ImportOptions(entity: "Person"))
        #expect(
            try fixture.rows(
                "SELECT p.ZNUMBER, h.ZNAME FROM ZPASSPORT p LEFT JOIN ZPERSON h ON h.Z_PK = p.ZHOLDER ORDER BY p.ZNUMBER"
            ) == [["P1", "Ann"], ["P3", "Cy"]])
        #expect(try Self.problems(fixture) == [])
        let error = try #require(throws: ImportError.self) {
            try fixture.run(
                ArrayRecordReader([[("name", .text("Bob")), ("passport", .text("P1"))]]),
                ImportOptions(entity: "Person"))
        }
        #expect(error.position.keyPath == "[0].passport")
        #expect(error.message.contains("Passport/p1"))
        #expect(error.message.contains("belongs to Person/p1"))
        #expect(error.message.contains("Person/p3"))
        #expect(try fixture.count("SELECT COUNT(*) FROM ZPERSON") == 2)
        #expect(try Self.problems(fixture) == [])
    }

    @Test func testScalarToManyTakesNoPartFromAnotherDish() throws {
        // The reproduction: "Flour, Sugar" for a new dish left the cake without them.
        let fixture = try Self.fixture()
        _ = try fixture.run(
            ArrayRecordReader([
                [
                    ("name", .text("Cake")),
                    (
                        "parts",
                        .list([
                            .object([("name", .text("Flour"))]),
                            .object([("name", .text("Sugar"))]),
                        ])
                    ),
                ]
            ]), ImportOptions(entity: "Dish"))
        try fixture.store.connection.execute(
            """
            INSERT INTO ZPART (Z_PK, Z_ENT, Z_OPT, ZNAME)
            SELECT 3, Z_ENT, 1, 'Salt' FROM Z_PRIMARYKEY WHERE Z_NAME = 'Part'
            """)
        try fixture.store.connection.execute(
            "UPDATE Z_PRIMARYKEY SET Z_MAX = 3 WHERE Z_NAME = 'Part'")
        _ = try fixture.run(
            ArrayRecordReader([
                // Flour twice: one part.
                [("name", .text("A")), ("parts", .text("Flour, Sugar, Salt, Flour"))],
                [("name", .text("B")), ("parts", .text("Flour"))],
            ]), ImportOptions(entity: "Dish"))
        let parts = """
            SELECT d.ZNAME, p.ZNAME FROM ZPART p JOIN ZDISH d ON d.Z_PK = p.ZDISH
            ORDER BY d.ZNAME, p.ZNAME
            """
        #expect(
            try fixture.rows(parts) == [
                ["A", "Flour"], ["A", "Salt"], ["A", "Sugar"], ["B", "Flour"], ["Cake", "Flour"],
                ["Cake", "Sugar"],
            ])
        #expect(try fixture.count("SELECT COUNT(*) FROM ZPART") == 6)
        // A again (an upsert by name): its own parts, not new ones.
        _ = try fixture.run(
            ArrayRecordReader([[("name", .text("A")), ("parts", .text("Flour, Salt"))]]),
            ImportOptions(entity: "Dish"))
        #expect(try fixture.count("SELECT COUNT(*) FROM ZPART") == 6)
        #expect(try Self.problems(fixture) == [])
    }

    @Test func testScalarToManyThatCannotMakeANewObjectNamesBothOwners() throws {
        // The demo's case: an Ingredient needs its displayOrder, so no new
        // "Flour" can be made; the record is refused and Cake keeps its own.
        let fixture = try ImportFixture("Recipes")
        _ = try fixture.run(
            ArrayRecordReader([
                ImporterRecordTests.recipe(
                    "Cake", type: "Dessert", ingredients: ["Flour", "Sugar"])
            ]),
            ImportOptions(entity: "Recipe"))
        let error = try #require(throws: ImportError.self) {
            try fixture.run(
                ArrayRecordReader([[("name", .text("A")), ("ingredients", .text("Flour, Sugar"))]]),
                ImportOptions(entity: "Recipe"))
        }
        #expect(error.message.contains("Ingredient/p1"))
        #expect(error.message.contains("belongs to Recipe/p1"))
        #expect(error.message.contains("displayOrder"))
        #expect(
            try fixture.rows("SELECT ZNAME, ZRECIPE FROM ZINGREDIENT ORDER BY Z_PK")
                == [["Flour", "1"], ["Sugar", "1"]])
        #expect(try fixture.count("SELECT COUNT(*) FROM ZRECIPE") == 1)
    }
    /// A many-to-many ordered on both sides keeps both places in its join
    /// table: the song's place in the playlist, and the playlist's place
    /// among the song's playlists (after those it had), as `Context.save`
    /// writes them.
    @Test func testAnOrderedManyToManyGetsBothSidesPlaces() throws {
        let schema = """
            {"format": "strata-schema/1", "model": "Lists", "version": 1, "entities": {
              "Playlist": {"attributes": {"name": {"type": "string"}}, "relationships": {
                "songs": {"destination": "Song", "toMany": true, "ordered": true,
                          "inverse": "playlists", "optional": true, "relatedBy": "title"}}},
              "Song": {"attributes": {"title": {"type": "string"}}, "relationships": {
                "playlists": {"destination": "Playlist", "toMany": true, "ordered": true,
                              "inverse": "songs", "optional": true}}}}}
            """
        let fixture = try ImportFixture(
            model: try SchemaDecoder().decode(Data(schema.utf8), file: "Lists.json"))
        func playlist(_ name: String, _ songs: [RecordValue]) -> [(String, RecordValue)] {
            [("name", .text(name)), ("songs", .list(songs))]
        }
        _ = try fixture.run(
            ArrayRecordReader([
                playlist(
                    "P1", [.object([("title", .text("A"))]), .object([("title", .text("B"))])])
            ]), ImportOptions(entity: "Playlist"))
        // Linked by title: A and B are the store's songs, listed B first.
        _ = try fixture.run(
            ArrayRecordReader([playlist("P2", [.text("B"), .text("A")])]),
            ImportOptions(entity: "Playlist"))
        // (playlist, song, the song's place in the playlist, the playlist's
        // place among the song's playlists: Core Data's keys, 2048 first)
        #expect(
            try fixture.rows(
                "SELECT p.ZNAME, s.ZTITLE, j.Z_FOK_2SONGS, j.Z_FOK_1PLAYLISTS FROM Z_1SONGS j "
                    + "JOIN ZPLAYLIST p ON p.Z_PK = j.Z_1PLAYLISTS JOIN ZSONG s ON s.Z_PK = j.Z_2SONGS "
                    + "ORDER BY p.ZNAME, j.Z_FOK_2SONGS") == [
                    ["P1", "A", "2048", "2048"], ["P1", "B", "3072", "2048"],
                    ["P2", "B", "2048", "3072"], ["P2", "A", "3072", "3072"],
                ])
        #expect(try Self.problems(fixture) == [])
    }
}
