import Foundation
import Testing

@testable import Strata
@testable import StrataCore
@testable import StrataDiagram
@testable import StrataSchema

/// Running Graphviz's `dot` (Debian's `graphviz`, which `make` installs):
/// valid SVG for hostile names and for hundreds of entities, the message
/// when `dot` is missing, and atomic output.
struct GraphvizTests {
    /// The titles of the `<g class="node">` and `<g class="edge">` groups of
    /// the SVG at `url`, which must parse as XML.
    static func groups(_ url: URL) throws -> (nodes: [String], edges: [String]) {
        let document = try XMLDocument(contentsOf: url)
        let groups = document.root.descendants(named: "g")
        func titles(_ kind: String) -> [String] {
            groups.filter { $0[attribute: "class"] == kind }.map {
                $0.child(named: "title")?.text ?? ""
            }
        }
        return (titles("node"), titles("edge"))
    }

    @Test func testHostileNamesGiveValidSVG() throws {
        let folder = try TemporaryDirectory()
        let hostile = "A\"]; x -> y [label=\"<b>&'\u{1B}\nz\\"
        var abstract = Entity(name: "</svg>&", attributes: [Attribute(name: "]]>", type: .string)])
        abstract.isAbstract = true
        let model = Model(
            name: "<M>", version: 1,
            entities: [
                Entity(
                    name: hostile, parent: "</svg>&",
                    relationships: [DiagramTestModels.relationship("r\"", to: hostile)]),
                abstract,
            ])
        let output = folder.file("hostile.svg")
        try Graphviz.render(ModelDiagram(model: model).dot, as: .svg, to: output)
        let (nodes, edges) = try Self.groups(output)
        #expect(nodes.count == 2)
        #expect(nodes.contains("</svg>&"))
        #expect(edges.count == 2)
        let text = try String(contentsOf: output, encoding: .utf8)
        #expect(text.contains("&lt;/svg&gt;&amp;"))
        #expect(!text.contains("\u{1B}"))
    }

    /// 400 entities in chains of to-one/to-many pairs and inheritance:
    /// Graphviz takes its time, Strata's part is linear.
    @Test func testHundredsOfEntitiesDraw() throws {
        let count = 400
        var entities: [Entity] = []
        for index in 0..<count {
            let name = "E\(index)"
            var relationships: [Relationship] = []
            if index + 1 < count, index % 5 != 4 {
                relationships.append(
                    DiagramTestModels.relationship("next", to: "E\(index + 1)", inverse: "previous")
                )
            }
            if index % 5 != 0 {
                relationships.append(
                    DiagramTestModels.relationship(
                        "previous", to: "E\(index - 1)", inverse: "next", toMany: true))
            }
            let parent = index % 5 == 4 ? "E\(index - 4)" : nil
            entities.append(
                Entity(
                    name: name, parent: parent,
                    attributes: [
                        Attribute(name: "name", type: .string),
                        Attribute(name: "when", type: .date),
                    ], relationships: relationships))
        }
        let folder = try TemporaryDirectory()
        let output = folder.file("large.svg")
        try Graphviz.render(
            ModelDiagram(model: Model(name: "Large", version: 1, entities: entities)).dot, as: .svg,
            to: output)
        let (nodes, edges) = try Self.groups(output)
        #expect(nodes.count == count)
        // 4 pairs and 1 inheritance edge per group of 5.
        #expect(edges.count == count / 5 * 5)
    }

    @Test func testMissingDotNamesTheDebianPackageAndWritesNothing() throws {
        let folder = try TemporaryDirectory()
        let output = folder.file("model.svg")
        do {
            try Graphviz.render(
                ModelDiagram(model: DiagramTestModels.shop).dot, as: .svg, to: output,
                searchPath: folder.url.path)
            Issue.record("rendered without dot")
        } catch {
            #expect(error.kind == .graphvizMissing)
            #expect(error.message.contains("'graphviz'"))
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).isEmpty)
    }

    @Test func testDotFormatNeedsNoGraphviz() throws {
        let folder = try TemporaryDirectory()
        let output = folder.file("model.dot")
        let dot = ModelDiagram(model: DiagramTestModels.shop).dot
        try Graphviz.render(dot, as: .dot, to: output, searchPath: "")
        #expect(try String(contentsOf: output, encoding: .utf8) == dot)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: folder.url.path) == ["model.dot"])
    }

    /// A failing `dot` leaves the old file as it was and no temporary file.
    @Test func testFailingDotLeavesTheOldFile() throws {
        let folder = try TemporaryDirectory()
        let output = folder.file("model.svg")
        try Data("old".utf8).write(to: output)
        do {
            try Graphviz.render("digraph { broken", as: .svg, to: output)
            Issue.record("rendered a broken graph")
        } catch {
            #expect(error.kind == .graphvizFailed)
            #expect(error.message.contains("syntax error"), "\(error.message)")
        }
        #expect(try String(contentsOf: output, encoding: .utf8) == "old")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: folder.url.path) == ["model.svg"])
    }

    @Test func testFormatFromExtension() {
        #expect(DiagramFormat(pathExtension: "SVG") == .svg)
        #expect(DiagramFormat(pathExtension: "gv") == .dot)
        #expect(DiagramFormat(pathExtension: "pdf") == .pdf)
        #expect(DiagramFormat(pathExtension: "png") == .png)
        #expect(DiagramFormat(pathExtension: "jpg") == nil)
    }
}
