import Foundation
import Testing

@testable import Strata
@testable import StrataStore

/// The one place primary keys come from (coredata-format.md §1.2): a tree's
/// counter is its root's `Z_MAX`, never below the highest key in its table,
/// and only the root's row records it.
struct KeyAllocatorTests {
    /// `Z_MAX` of every entity, by name.
    private static func maxima(_ fixture: ContextFixture) throws -> [String: Int64] {
        var maxima: [String: Int64] = [:]
        try fixture.store.connection.prepare("SELECT Z_NAME, Z_MAX FROM Z_PRIMARYKEY")
            .forEachRow { row in
                if let name = row.text(at: 0) { maxima[name] = row.int64(at: 1) }
            }
        return maxima
    }

    @Test func testSubentitiesShareTheRootsCounterWhichAloneRecordsIt() throws {
        let fixture = try ContextFixture(model: GraphModels.shapes())
        for entity in ["Circle", "Square", "Circle"] {
            try fixture.context.insert(entity).set("name", entity)
        }
        try fixture.context.insert("Canvas").set("name", "one")
        try fixture.context.save()
        #expect(
            try Self.maxima(fixture)
                == ["Shape": 3, "Circle": 0, "Square": 0, "Canvas": 1, "Label": 0])
        #expect(
            try fixture.integerRows("SELECT Z_PK FROM ZSHAPE ORDER BY Z_PK") == [[1], [2], [3]])
    }

    @Test func testASaveWhereZMaxLagsBehindTheRowsTakesKeysAboveThem() throws {
        let fixture = try ContextFixture(model: GraphModels.shapes())
        for _ in 0..<3 { try fixture.context.insert("Canvas").set("name", "old") }
        try fixture.context.save()
        // A tool that wrote rows without recording their keys.
        try fixture.store.connection.execute(
            "UPDATE Z_PRIMARYKEY SET Z_MAX = 1 WHERE Z_NAME = 'Canvas'")
        try fixture.context.insert("Canvas").set("name", "new")
        try fixture.context.save()
        #expect(
            try fixture.integerRows("SELECT Z_PK FROM ZCANVAS ORDER BY Z_PK")
                == [[1], [2], [3], [4]])
        #expect(try Self.maxima(fixture)["Canvas"] == 4)
        try fixture.expectSound()
    }

    @Test func testSaveWritesOnlyTheCountersThatMovedAndNeverLowersOne() throws {
        let fixture = try ContextFixture(model: GraphModels.shapes())
        let connection = fixture.store.connection
        let keys = try KeyAllocator(connection: connection)
        #expect(try keys.next(forRoot: "Canvas", table: "ZCANVAS") == 1)
        #expect(try keys.next(forRoot: "Canvas", table: "ZCANVAS") == 2)
        _ = try keys.counter(forRoot: "Shape", table: "ZSHAPE")  // Read, not moved.
        // Another writer raised Shape's and Canvas's meanwhile.
        try connection.execute("UPDATE Z_PRIMARYKEY SET Z_MAX = 7 WHERE Z_NAME = 'Shape'")
        try connection.execute("UPDATE Z_PRIMARYKEY SET Z_MAX = 9 WHERE Z_NAME = 'Canvas'")
        try keys.save()
        #expect(try Self.maxima(fixture)["Shape"] == 7)
        #expect(try Self.maxima(fixture)["Canvas"] == 9)
    }

    @Test func testRaisingToTheHighestKeysTouchesRootsOnly() throws {
        let fixture = try ContextFixture(model: GraphModels.shapes())
        let connection = fixture.store.connection
        try connection.execute(
            "INSERT INTO ZSHAPE (Z_PK, Z_ENT, Z_OPT) VALUES (5, "
                + "(SELECT Z_ENT FROM Z_PRIMARYKEY WHERE Z_NAME = 'Circle'), 1)")
        try connection.execute("UPDATE Z_PRIMARYKEY SET Z_MAX = 2 WHERE Z_NAME = 'Canvas'")
        try KeyAllocator.raiseToHighestKeys(
            of: try StoreMapping(model: fixture.model, store: fixture.store),
            model: fixture.model, on: connection)
        #expect(
            try Self.maxima(fixture)
                == ["Shape": 5, "Circle": 0, "Square": 0, "Canvas": 2, "Label": 0])
    }
}
