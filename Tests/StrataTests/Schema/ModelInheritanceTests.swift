import Testing

@testable import Strata
@testable import StrataSchema

struct ModelInheritanceTests {
    /// objc.io Moody: `1 GeographicRegion(abstract) · 2 Continent · 3 Country · 4 Mood`.
    @Test func testNumberingIsDepthFirstWithRootsAndChildrenByName() {
        let model = Model(
            name: "Moody", version: 1,
            entities: [
                Entity(name: "Mood"),
                Entity(name: "Country", parent: "GeographicRegion"),
                Entity(name: "GeographicRegion"),
                Entity(name: "Continent", parent: "GeographicRegion"),
            ])
        #expect(
            model.entitiesInNumberingOrder.map(\.name) == [
                "GeographicRegion", "Continent", "Country", "Mood",
            ])
        #expect(model.entityNumbers["Mood"] == 4)
        #expect(model.rootEntity(of: "Country")?.name == "GeographicRegion")
    }

    @Test func testInheritedPropertiesAreIncludedAndSorted() {
        let region = Entity(name: "Region", attributes: [Attribute(name: "name", type: .string)])
        let country = Entity(
            name: "Country", parent: "Region",
            attributes: [Attribute(name: "code", type: .integer16)])
        let model = Model(name: "M", version: 1, entities: [region, country])
        #expect(model.allAttributes(of: "Country").map(\.name) == ["code", "name"])
        #expect(model.allAttributes(of: "Region").map(\.name) == ["name"])
    }

    @Test func testParentCycleIsDetectedAndNumberingStillTerminates() {
        let model = Model(
            name: "M", version: 1,
            entities: [
                Entity(name: "A", parent: "B"), Entity(name: "B", parent: "A"),
                Entity(name: "C", parent: "A"),
            ])
        #expect(model.isOnParentCycle("A"))
        #expect(!model.isOnParentCycle("C"))
        #expect(model.entitiesInNumberingOrder.map(\.name) == ["A", "C", "B"])
    }
}
