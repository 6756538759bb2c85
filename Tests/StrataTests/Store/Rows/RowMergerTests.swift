import Foundation
import Testing

@testable import Strata
@testable import StrataStore

/// One store's rows added to another of the same model: matched objects
/// updated in place, the others added after the destination's keys, links
/// translated, `Z_MAX` raised, nothing written when a reference would break.
struct RowMergerTests {
    @Test func testMatchedObjectsAreUpdatedAndTheOthersAddedWithTheirLinksTranslated() throws {
        let source = try ContextFixture(model: GraphModels.shapes())
        let wall = try source.context.insert("Canvas")
        try wall.set("name", "wall")
        let door = try source.context.insert("Canvas")
        try door.set("name", "door")
        let sun = try source.context.insert("Circle")
        try sun.set("name", "sun")
        try sun.set("canvas", wall)
        try source.context.save()

        let destination = try ContextFixture(model: GraphModels.shapes())
        for name in ["floor", "wall"] {
            try destination.context.insert("Canvas").set("name", name)
        }
        try destination.context.save()

        try RowMerger(
            source: source.store, destination: destination.store, model: GraphModels.shapes(),
            matchingKeys: ["Canvas": ["name"]]
        ).merge()

        // wall (2) matched and rewritten (Z_OPT 2); door added under its
        // source key (2) after the destination's counter (2): 4.
        #expect(
            try destination.integerRows("SELECT Z_PK, Z_OPT FROM ZCANVAS ORDER BY Z_PK")
                == [[1, 1], [2, 2], [4, 1]])
        // The circle, new, points at the destination's wall.
        #expect(try destination.integerRows("SELECT Z_PK, ZCANVAS FROM ZSHAPE") == [[1, 2]])
        #expect(try destination.maxKey("Canvas") == 4)
        #expect(try destination.maxKey("Shape") == 1)
        try destination.expectSound()
    }

    @Test func testAMatchingAttributeWithoutAColumnWritesNothing() throws {
        let source = try ContextFixture(model: GraphModels.shapes())
        try source.context.insert("Canvas").set("name", "wall")
        try source.context.save()
        let destination = try ContextFixture(model: GraphModels.shapes())
        #expect {
            try RowMerger(
                source: source.store, destination: destination.store,
                model: GraphModels.shapes(), matchingKeys: ["Canvas": ["colour"]]
            ).merge()
        } throws: { error in
            (error as? RowMergeError)?.code == .missingColumn
                && "\(error)" == "Canvas's unique colour has no column"
        }
        #expect(try destination.rows("ZCANVAS") == 0)
    }
}
