import Foundation
import Testing

@testable import Strata
@testable import StrataSchema
@testable import StrataStore

/// `Store.checkRelationships(model:)`: each kind of broken reference, made
/// with plain SQL in a store a context wrote correctly.
struct StoreRelationshipCheckTests {
    private func problems(_ fixture: ContextFixture) throws -> [String] {
        try fixture.store.checkRelationships(model: fixture.model).map(\.description)
    }

    private func execute(_ fixture: ContextFixture, _ sql: String) throws {
        try fixture.store.connection.execute(sql)
    }

    /// A saved recipe (p1) with an image (p1) and one ingredient (p1).
    private func recipes() throws -> ContextFixture {
        let fixture = try ContextFixture("Recipes")
        let recipe = try fixture.context.insert("Recipe")
        try recipe.set("name", "Bread")
        let image = try fixture.context.insert("Image")
        try recipe.setObject(image, forKey: "image")
        let ingredient = try fixture.context.insert("Ingredient")
        try ingredient.set("name", "Flour")  // Required, as in Apple's model.
        try ingredient.set("displayOrder", Int64(1))
        try recipe.add(ingredient, to: "ingredients")
        try fixture.context.save()
        return fixture
    }

    /// Canvas p1 with shapes: circle p1, square p2; a label (p1) on the square.
    private func shapes() throws -> ContextFixture {
        let fixture = try ContextFixture(model: GraphModels.shapes())
        let context = fixture.context
        let canvas = try context.insert("Canvas")
        try canvas.add(try context.insert("Circle"), to: "shapes")
        let square = try context.insert("Square")
        try canvas.add(square, to: "shapes")
        try context.insert("Label").setObject(square, forKey: "shape")
        try context.save()
        return fixture
    }

    @Test func testSoundStoresHaveNoProblems() throws {
        #expect(try problems(recipes()) == [])
        #expect(try problems(shapes()) == [])
    }

    @Test func testForeignKeyToNoRowIsReported() throws {
        let fixture = try recipes()
        try execute(fixture, "UPDATE ZINGREDIENT SET ZRECIPE = 99")
        #expect(
            try problems(fixture) == [
                "Ingredient/p1.recipe: missingDestination: ZINGREDIENT.ZRECIPE = 99"
                    + " names no row of ZRECIPE"
            ])
    }

    @Test func testOneToOneThatDoesNotPointBackIsReported() throws {
        let fixture = try recipes()
        try execute(fixture, "UPDATE ZIMAGE SET ZRECIPE = NULL")
        #expect(
            try problems(fixture) == [
                "Recipe/p1.image: oneToOneMismatch: image → Image/p1, but Image/p1.recipe is nil"
                    + " (ZRECIPE.ZIMAGE = 1, ZIMAGE.ZRECIPE is NULL)"
            ])
    }

    /// A writer's end check reads only the rows it wrote (keys from its
    /// first new key on, and the rows it linked): a broken row it did not
    /// write is not its to report.
    @Test func testWrittenRowsScopeTheCheck() throws {
        let fixture = try recipes()
        for name in ["Sugar", "Salt"] {
            let ingredient = try fixture.context.insert("Ingredient")
            try ingredient.set("name", name)
            try ingredient.set("displayOrder", Int64(2))
        }
        try fixture.context.save()
        // Every ingredient (p1, p2, p3) names a recipe that is not there.
        try execute(fixture, "UPDATE ZINGREDIENT SET ZRECIPE = 99")
        func reported(_ written: WrittenRows) throws -> [Int64?] {
            try fixture.store.checkRelationships(
                model: fixture.model, tables: nil, knownJoinColumns: [], checksTables: false,
                written: written
            ).map(\.primaryKey)
        }
        #expect(try reported(WrittenRows(firstNewKey: ["ZINGREDIENT": 3])) == [3])
        #expect(try reported(WrittenRows(linked: ["ZINGREDIENT": [1]])) == [1])
        #expect(
            try reported(WrittenRows(firstNewKey: ["ZINGREDIENT": 3], linked: ["ZINGREDIENT": [1]]))
                == [1, 3])
        // Nothing written in the table: its checks are skipped.
        #expect(try reported(WrittenRows(firstNewKey: ["ZRECIPE": 1])) == [])
        #expect(try reported(WrittenRows(firstNewKey: ["ZINGREDIENT": 1])) == [1, 2, 3])
    }

    @Test func testZMaxBelowTheLargestKeyIsReported() throws {
        let fixture = try recipes()
        try execute(fixture, "UPDATE Z_PRIMARYKEY SET Z_MAX = 0 WHERE Z_NAME = 'Ingredient'")
        #expect(
            try problems(fixture) == [
                "Ingredient/p1: maxBelowPrimaryKey: Z_PRIMARYKEY.Z_MAX is 0 but ZINGREDIENT"
                    + " holds Z_PK 1"
            ])
    }

    @Test func testEntityNumbersOutsideTheTreeOrAbstractAreReported() throws {
        let fixture = try shapes()
        try execute(fixture, "UPDATE ZSHAPE SET Z_ENT = 3 WHERE Z_PK = 1")
        try execute(fixture, "UPDATE ZSHAPE SET Z_ENT = 99 WHERE Z_PK = 2")
        let found = try problems(fixture)
        #expect(
            found.prefix(2) == [
                "Shape/p1: unknownEntityNumber: ZSHAPE: Z_ENT 3 is the abstract entity Shape",
                "Shape/p2: unknownEntityNumber: ZSHAPE: Z_ENT 99 is no entity of the Shape tree",
            ])
        // The label's key now names a row outside the Shape tree.
        #expect(
            found.dropFirst(2).contains(
                "Label/p1.shape: wrongDestinationEntity: ZLABEL.ZSHAPE = 2 names Z_ENT 99,"
                    + " not a Shape"))
    }

    @Test func testEntityColumnDisagreeingWithTheRowIsReported() throws {
        let fixture = try shapes()
        try execute(fixture, "UPDATE ZLABEL SET Z3_SHAPE = 4")
        #expect(
            try problems(fixture) == [
                "Label/p1.shape: entityColumnMismatch: ZLABEL.Z3_SHAPE is 4"
                    + " but the destination's Z_ENT is 5"
            ])
    }

    @Test func testKeyNamingASiblingEntityIsReported() throws {
        var shape = Entity(name: "Shape", attributes: [GraphModels.name()])
        shape.relationships = [GraphModels.toMany("pins", "Pin", inverse: "circle")]
        let model = Model(
            name: "Pins", version: 1,
            entities: [
                shape,
                Entity(name: "Circle", parent: "Shape"),
                Entity(name: "Oval", parent: "Shape"),
                Entity(
                    name: "Pin",
                    relationships: [GraphModels.toOne("circle", "Circle", inverse: "pins")]),
            ])
        let fixture = try ContextFixture(model: model)
        let pin = try fixture.context.insert("Pin")
        try pin.setObject(try fixture.context.insert("Circle"), forKey: "circle")
        try fixture.context.insert("Oval").set("name", "oval")
        try fixture.context.save()
        #expect(try problems(fixture) == [])

        try execute(fixture, "UPDATE ZPIN SET ZCIRCLE = 2")
        #expect(
            try problems(fixture) == [
                "Pin/p1.circle: wrongDestinationEntity: ZPIN.ZCIRCLE = 2 names Oval, not a Circle"
            ])
    }

    @Test func testJoinRowsNamingNoRowAreReportedOnTheirSide() throws {
        let fixture = try ContextFixture(model: GraphModels.library())
        let author = try fixture.context.insert("Author")
        try author.add(try fixture.context.insert("Book"), to: "books")
        try fixture.context.save()
        #expect(try problems(fixture) == [])

        try execute(fixture, "INSERT INTO Z_1BOOKS (Z_1AUTHORS, Z_2BOOKS) VALUES (1, 42)")
        try execute(fixture, "INSERT INTO Z_1BOOKS (Z_1AUTHORS, Z_2BOOKS) VALUES (7, 1)")
        #expect(
            try problems(fixture) == [
                "Author/p1.books: missingDestination: Z_1BOOKS.Z_2BOOKS = 42 names no row of ZBOOK",
                "Book/p1.authors: missingDestination: Z_1BOOKS.Z_1AUTHORS = 7"
                    + " names no row of ZAUTHOR",
            ])
    }
}
