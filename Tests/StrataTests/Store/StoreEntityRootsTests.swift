import Testing

@testable import StrataStore

/// `Store.root(of:in:)`: the one walk up `Z_SUPER` that store info, the
/// unknown-rows scan and the export use to find an entity's table.
struct StoreEntityRootsTests {
    private static func record(_ number: Int, _ name: String, parent: Int) -> Store.EntityRecord {
        Store.EntityRecord(number: number, name: name, superNumber: parent, maxPrimaryKey: 0)
    }

    @Test func testTheWalkFollowsParentsToTheRoot() {
        let records = [
            Self.record(1, "Media", parent: 0), Self.record(2, "Photo", parent: 1),
            Self.record(3, "LivePhoto", parent: 2),
        ]
        let byNumber = Dictionary(uniqueKeysWithValues: records.map { ($0.number, $0) })
        #expect(Store.root(of: records[2], in: byNumber).name == "Media")
        #expect(Store.root(of: records[0], in: byNumber).name == "Media")
    }

    @Test func testAMissingParentOrACycleStopsAtTheLastRecordReached() {
        let dangling = Self.record(4, "Orphan", parent: 99)
        let first = Self.record(5, "Ping", parent: 6)
        let second = Self.record(6, "Pong", parent: 5)
        let byNumber = Dictionary(
            uniqueKeysWithValues: [dangling, first, second].map { ($0.number, $0) })
        #expect(Store.root(of: dangling, in: byNumber).name == "Orphan")
        #expect(Store.root(of: first, in: byNumber).name == "Pong")
        #expect(Store.root(of: second, in: byNumber).name == "Ping")
    }
}
