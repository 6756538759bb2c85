import Foundation
import Testing

@testable import Strata
@testable import StrataCore

struct XMLElementTests {
    private let model = XMLElement(
        name: "model",
        children: [
            XMLElement(
                name: "entity", attributes: [.init(name: "name", value: "A")],
                children: [
                    XMLElement(name: "attribute", attributes: [.init(name: "name", value: "a1")]),
                    XMLElement(
                        name: "fetchIndex",
                        children: [XMLElement(name: "fetchIndexElement", line: 5)]),
                    XMLElement(name: "attribute", attributes: [.init(name: "name", value: "a2")]),
                ]),
            XMLElement(name: "elements"),
            XMLElement(
                name: "entity", attributes: [.init(name: "name", value: "B")],
                children: [
                    XMLElement(name: "attribute", attributes: [.init(name: "name", value: "b1")])
                ]),
        ])

    @Test func testAttributeSubscriptReturnsTheFirstMatchOrNil() {
        let element = XMLElement(
            name: "a",
            attributes: [.init(name: "x", value: "1"), .init(name: "y", value: "")])
        #expect(element[attribute: "x"] == "1")
        #expect(element[attribute: "y"] == "")
        #expect(element[attribute: "z"] == nil)
    }

    @Test func testChildrenNamedKeepsDocumentOrder() {
        let names = model.children(named: "entity").map { $0[attribute: "name"] }
        #expect(names == ["A", "B"])
        #expect(model.children(named: "missing").isEmpty)
    }

    @Test func testChildNamedReturnsTheFirstDirectChildOnly() {
        #expect(model.child(named: "entity")?[attribute: "name"] == "A")
        #expect(model.child(named: "elements")?.name == "elements")
        // `attribute` elements are grandchildren, not children.
        #expect(model.child(named: "attribute") == nil)
    }

    @Test func testDescendantsAreDepthFirstInDocumentOrder() {
        let names = model.descendants(named: "attribute").map { $0[attribute: "name"] }
        #expect(names == ["a1", "a2", "b1"])
        #expect(model.descendants(named: "fetchIndexElement").map(\.line) == [5])
        #expect(model.descendants(named: "model").isEmpty)
    }
}
