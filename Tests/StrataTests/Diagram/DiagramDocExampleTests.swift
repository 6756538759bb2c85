import Foundation
import Testing

@testable import Strata
@testable import StrataCore
@testable import StrataDiagram
@testable import StrataSchema

/// The code examples of the Diagrams article and ``ModelDiagram``'s doc
/// comment, compiled and run as written (paths moved to a temporary folder).
struct DiagramDocExampleTests {
    @Test func testDiagramsArticleExample() throws {
        let folder = try TemporaryDirectory()
        let diary = ContextFixture.schemas.appendingPathComponent("Diary")

        // From Diagrams.md.
        let chain = try SchemaChain.load(directory: diary)
        let diagram = ModelDiagram(model: chain.newest)
        try Graphviz.render(diagram.dot, as: .svg, to: folder.file("Diary.svg"))

        let changes = try ModelDiagram(chain: chain, from: 1, to: chain.newest.version)
        try Graphviz.render(changes.dot, as: .dot, to: folder.file("changes.dot"))

        #expect(try XMLDocument(contentsOf: folder.file("Diary.svg")).root.name == "svg")
        let source = try String(contentsOf: folder.file("changes.dot"), encoding: .utf8)
        #expect(source.contains(DiagramChange.added.color))
    }

    @Test func testModelDiagramDocCommentExample() throws {
        let folder = try TemporaryDirectory()

        // From ModelDiagram's doc comment.
        let chain = try SchemaChain.load(
            directory: ContextFixture.schemas.appendingPathComponent("Recipes"))
        let diagram = ModelDiagram(model: chain.newest)
        try Graphviz.render(diagram.dot, as: .svg, to: folder.file("Recipes.svg"))

        let svg = try XMLDocument(contentsOf: folder.file("Recipes.svg"))
        let boxes = svg.root.descendants(named: "g").filter { $0[attribute: "class"] == "node" }
        #expect(boxes.count == chain.newest.entities.count)
    }
}
