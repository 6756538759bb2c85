import Foundation
import Testing

@testable import Strata
@testable import StrataCore
@testable import StrataStore

/// Reads named by entity and property: the row layer finds the tables and
/// columns (coredata-format.md §1), keeps subentities' rows apart by `Z_ENT`
/// and binds what varies per read.
struct RowReaderTests {
    /// Calls `body` with a store holding a canvas with a circle and a
    /// square (the circle labelled), and a reader of it.
    private static func withShapes(_ body: (ContextFixture, RowReader) throws -> Void) throws {
        let fixture = try ContextFixture(model: GraphModels.shapes())
        let canvas = try fixture.context.insert("Canvas")
        try canvas.set("name", "wall")
        let circle = try fixture.context.insert("Circle")
        try circle.set("name", "sun")
        try circle.set("radius", 2.5)
        try circle.set("canvas", canvas)
        let square = try fixture.context.insert("Square")
        try square.set("name", "box")
        try square.set("canvas", canvas)
        let label = try fixture.context.insert("Label")
        try label.set("name", "yellow")
        try label.set("shape", circle)
        try fixture.context.save()
        let tables = try StoreMapping(model: GraphModels.shapes(), store: fixture.store)
        try withExtendedLifetime(fixture) {
            try body(fixture, RowReader(fixture.store, tables: tables))
        }
    }

    private static func texts(_ reader: RowReader, _ query: RowQuery) throws -> [String] {
        var texts: [String] = []
        try reader.forEachRow(query) { row in
            texts.append(
                (0..<row.columnCount).map { row.text(at: $0) ?? "nil" }.joined(separator: " "))
        }
        return texts
    }

    @Test func testATreeReadTakesTheSubentitiesRowsAndAnExactReadOnlyTheEntitys() throws {
        try Self.withShapes { _, reader in
            let tree = try Self.texts(reader, RowQuery("Shape", [.key, .attribute("name")]))
            #expect(tree == ["1 sun", "2 box"])
            var exactly = RowQuery("Circle", [.attribute("name"), .attribute("radius")])
            exactly.entities = .exactly
            let circles = try Self.texts(reader, exactly)
            #expect(circles == ["sun 2.5"])
        }
    }

    @Test func testAKeyPathCrossesToOnesAndReadsNullWhereALinkIsEmpty() throws {
        try Self.withShapes { fixture, reader in
            let orphan = try fixture.context.insert("Label")
            try orphan.set("name", "loose")
            try fixture.context.save()
            let query = RowQuery(
                "Label",
                [.attribute("name"), .keyPath(["shape", "canvas", "name"]), .toOne("shape")])
            #expect(try Self.texts(reader, query) == ["yellow wall 1", "loose nil nil"])
        }
    }

    @Test func testFiltersBoundPerReadComeAfterTheFixedOnesInTheirOrder() throws {
        try Self.withShapes { _, reader in
            var query = RowQuery("Shape", [.key])
            query.filters = [.equals(.attribute("name")), .isNullOrEquals(.toOne("canvas"))]
            let statement = try reader.prepare(query)
            var found: [Int64] = []
            for (name, canvas) in [("box", Int64(1)), ("sun", 7), ("nothing", 1)] {
                try statement.bind([.text(name), .integer(canvas)])
                try statement.forEachRow { found.append($0.int64(at: 0)) }
            }
            #expect(found == [2])

            var values = RowQuery("Shape", [.attribute("name")])
            values.filters = [.values([.key, .attribute("name")], count: 2)]
            let pairs = try reader.prepare(values)
            try pairs.bind([.integer(1), .text("sun"), .integer(2), .text("sun")])
            var names: [String] = []
            try pairs.forEachRow { names.append($0.text(at: 0) ?? "") }
            #expect(names == ["sun"])
        }
    }

    @Test func testAggregatesCountRowsAndNulls() throws {
        try Self.withShapes { _, reader in
            var query = RowQuery("Shape", [.count, .nullCount(.attribute("name"))])
            query.inKeyOrder = false
            let counts = try Self.texts(reader, query)
            #expect(counts == ["2 0"])
            var empty = RowQuery("Circle", [.count])
            empty.filters = [.isNull(.toOne("canvas"))]
            empty.inKeyOrder = false
            let none = try Self.texts(reader, empty)
            #expect(none == ["0"])
        }
    }

    @Test func testGroupsByAKeyPathJoinTheirTables() throws {
        try Self.withShapes { fixture, reader in
            let second = try fixture.context.insert("Label")
            try second.set("name", "warm")
            let sun = try fixture.context.fetch("Circle", where: "name == %@", "sun").first
            try second.set("shape", sun)
            try fixture.context.save()
            var query = RowQuery("Label", [.keyPath(["shape", "name"]), .count])
            query.groupBy = [.keyPath(["shape", "name"])]
            query.inKeyOrder = false
            let groups = try Self.texts(reader, query)
            #expect(groups == ["sun 2"])
            query.minimumGroupSize = 3
            let none = try Self.texts(reader, query)
            #expect(none.isEmpty)
        }
    }

    @Test func testAPropertyTheStoreLacksIsNamed() throws {
        try Self.withShapes { _, reader in
            #expect {
                try reader.prepare(RowQuery("Circle", [.attribute("colour")]))
            } throws: { error in
                (error as? StoreError)?.code == .schemaMismatch
                    && "\(error)".contains("no column for Circle.colour")
            }
            #expect(throws: StoreError.self) { try reader.prepare(RowQuery("Triangle", [.key])) }
        }
    }

    @Test func testOneOwnersDestinationsComeInKeyOrder() throws {
        try Self.withShapes { _, reader in
            let statement = try reader.destinations(of: "shapes", from: "Canvas")
            try statement.bind([.integer(1)])
            var keys: [Int64] = []
            try statement.forEachRow { keys.append($0.int64(at: 0)) }
            #expect(keys == [1, 2])
        }
    }
}
