import Foundation
import Testing

@testable import Strata
@testable import StrataDiagram
@testable import StrataSchema

/// The DOT source of ``ModelDiagram``: boxes, arrowheads, inheritance,
/// italics for abstract entities, escaping, and the colours of a migration.
struct ModelDiagramTests {
    /// The edge lines of `dot` (`a -> b [...]`).
    static func edges(_ dot: String) -> [String] {
        dot.split(separator: "\n").map(String.init).filter { $0.contains(" -> ") }
    }

    /// The node lines of `dot` (a node's label is one line).
    static func nodes(_ dot: String) -> [String] {
        dot.split(separator: "\n").map(String.init).filter { $0.contains(" [label=<<TABLE") }
    }

    @Test func testOneBoxPerEntityWithAttributesAndTypes() {
        let dot = ModelDiagram(model: DiagramTestModels.shop).dot
        let nodes = Self.nodes(dot)
        #expect(nodes.count == 6)
        let order = nodes.first { $0.hasPrefix("  \"Order\" ") } ?? ""
        #expect(order.contains("<B>Order</B>"))
        #expect(
            order.contains(
                "<TD ALIGN=\"LEFT\">total</TD><TD ALIGN=\"LEFT\"><FONT COLOR=\"#666666\">double"))
        #expect(order.contains(">customer</TD>"))
        let customer = nodes.first { $0.hasPrefix("  \"Customer\" ") } ?? ""
        #expect(customer.contains("[Order]"), "a to-many shows its destination in brackets")
    }

    @Test func testInversePairIsOneEdgeWithEachSidesArrowhead() {
        let edges = Self.edges(ModelDiagram(model: DiagramTestModels.shop).dot)
        let pair = edges.filter { $0.contains("\"Customer\"") && $0.contains("\"Order\"") }
        #expect(pair.count == 1, "\(pair)")
        // Customer.orders (to-many) is the head at Order; Order.customer
        // (to-one) the tail at Customer.
        #expect(
            pair.first
                == "  \"Customer\":r0 -> \"Order\":r0 [dir=both, arrowhead=normalnormal, "
                + "arrowtail=normal];")
    }

    @Test func testRelationshipWithoutInverseIsOneWayEdge() {
        let edges = Self.edges(ModelDiagram(model: DiagramTestModels.shop).dot)
        #expect(edges.contains("  \"Note\":r0 -> \"Order\" [arrowhead=normal];"), "\(edges)")
    }

    @Test func testSelfInversePairIsOneEdge() {
        let edges = Self.edges(ModelDiagram(model: DiagramTestModels.shop).dot)
        #expect(
            edges.filter { $0.contains("\"Person\"") }
                == [
                    "  \"Person\":r0 -> \"Person\":r0 [dir=both, arrowhead=normal, arrowtail=normal];"
                ])
    }

    @Test func testInheritanceIsHollowTriangleToParent() {
        let edges = Self.edges(ModelDiagram(model: DiagramTestModels.shop).dot)
        #expect(edges.contains("  \"Book\" -> \"Item\" [arrowhead=empty, arrowsize=1.2];"))
        #expect(Self.edges(ModelDiagram(model: DiagramTestModels.shop).dot).count == 4)
    }

    @Test func testAbstractEntityInItalics() {
        let nodes = Self.nodes(ModelDiagram(model: DiagramTestModels.shop).dot)
        #expect(nodes.first { $0.hasPrefix("  \"Item\" ") }?.contains("<B><I>Item</I></B>") == true)
        #expect(nodes.first { $0.hasPrefix("  \"Book\" ") }?.contains("<B>Book</B>") == true)
        #expect(nodes.filter { $0.contains("<I>") }.count == 1)
    }

    @Test func testHostileNamesAreQuotedAndEscaped() {
        let hostile = "A\"]; x -> y [label=\"<b>&'\u{1B}\nz\\"
        let model = Model(
            name: "M\"}", version: 1,
            entities: [
                Entity(
                    name: hostile, attributes: [Attribute(name: "<TD>&amp;", type: .string)],
                    relationships: [DiagramTestModels.relationship("r\"", to: hostile)])
            ])
        let dot = ModelDiagram(model: model).dot
        // One quoted identifier: the quote and the trailing backslash
        // escaped, the control characters made visible.
        let identifier = "\"A\\\"]; x -> y [label=\\\"<b>&'\\\\u{1B}\\\\u{A}z\\\\\""
        #expect(dot.contains("\n  \(identifier) [label=<<TABLE"), "\(dot)")
        #expect(dot.contains("\n  \(identifier):r0 -> \(identifier) [arrowhead=normal];"))
        #expect(dot.hasPrefix("digraph \"M\\\"} version 1\" {\n"))
        // In labels, XML's special characters are entities.
        #expect(
            dot.contains(
                "<B>A&quot;]; x -&gt; y [label=&quot;&lt;b&gt;&amp;&#39;\\u{1B}\\u{A}z\\</B>"))
        #expect(dot.contains(">&lt;TD&gt;&amp;amp;</TD>"))
        #expect(dot.contains(">r&quot;</TD>"))
        #expect(!dot.contains("\u{1B}"))
        #expect(dot.split(separator: "\n").count == 8, "no name breaks a line")
    }

    @Test func testEscapersKeepDistinctNamesDistinct() {
        #expect(DOTText.quoted("a\\") == "\"a\\\\\"")
        #expect(DOTText.quoted("a\"") == "\"a\\\"\"")
        #expect(DOTText.html("<&>\"'") == "&lt;&amp;&gt;&quot;&#39;")
    }

    /// An entity that keeps its name continues the older one even when the
    /// older one carried another renaming identifier (a stray `elementID`
    /// real histories have): one box, not a removed and an added one, as
    /// the migration keeps its objects (issue 25).
    @Test func testAnEntityKeepingItsNameContinuesWhateverTheOlderIdentifier() throws {
        var old = Entity(name: "Thing")
        old.renamingIdentifier = "Before"
        let chain = SchemaChain(versions: [
            Model(name: "M", version: 1, entities: [old]),
            Model(name: "M", version: 2, entities: [Entity(name: "Thing")]),
        ])
        let nodes = Self.nodes(try ModelDiagram(chain: chain, from: 1, to: 2).dot)
        #expect(nodes.count == 1)
        #expect(
            !nodes.contains {
                $0.contains(DiagramChange.added.color) || $0.contains(DiagramChange.removed.color)
            })
    }

    // MARK: - Migrations

    /// Version 1 → 2: `Entry.text` renamed to `body` (renamedFrom), `mood`
    /// removed, `title` added; `Person` removed with its pair to Entry;
    /// `Tag` added with a pair to Entry; `Diary` renamed to `Journal` by
    /// renaming identifier.
    static var journalChain: SchemaChain {
        let older = Model(
            name: "Journal", version: 1,
            entities: [
                Entity(
                    name: "Entry",
                    attributes: [
                        Attribute(name: "text", type: .string),
                        Attribute(name: "mood", type: .integer16),
                    ],
                    relationships: [
                        DiagramTestModels.relationship("author", to: "Person", inverse: "entries")
                    ]),
                Entity(
                    name: "Person",
                    relationships: [
                        DiagramTestModels.relationship(
                            "entries", to: "Entry", inverse: "author", toMany: true)
                    ]),
                Entity(name: "Diary", attributes: [Attribute(name: "name", type: .string)]),
            ])
        var body = Attribute(name: "body", type: .string)
        body.renamedFrom = "text"
        var journal = Entity(name: "Journal", attributes: [Attribute(name: "name", type: .string)])
        journal.renamingIdentifier = "Diary"
        let newer = Model(
            name: "Journal", version: 2,
            entities: [
                Entity(
                    name: "Entry", attributes: [body, Attribute(name: "title", type: .string)],
                    relationships: [
                        DiagramTestModels.relationship(
                            "tags", to: "Tag", inverse: "entries", toMany: true)
                    ]),
                Entity(
                    name: "Tag",
                    relationships: [
                        DiagramTestModels.relationship(
                            "entries", to: "Entry", inverse: "tags", toMany: true)
                    ]),
                journal,
            ])
        return SchemaChain(versions: [older, newer])
    }

    @Test func testMigrationColoursAddedRemovedAndRenamed() throws {
        let dot = try ModelDiagram(chain: Self.journalChain, from: 1, to: 2).dot
        let nodes = Self.nodes(dot)
        let (added, removed, renamed) = (
            DiagramChange.added.color, DiagramChange.removed.color,
            DiagramChange.renamed(from: "").color
        )
        #expect((added, removed, renamed) == ("#2e7d32", "#c62828", "#e69500"))
        func node(_ name: String) -> String { nodes.first { $0.hasPrefix("  \"\(name)\" ") } ?? "" }
        // Entities: Tag added, Person removed, Journal renamed from Diary.
        #expect(node("Tag").contains("COLOR=\"\(added)\""))
        #expect(node("Person").contains("COLOR=\"\(removed)\""))
        #expect(node("Person").contains("<S><B>Person</B></S>"))
        #expect(node("Journal").contains("COLOR=\"\(renamed)\""))
        #expect(node("Journal").contains("was Diary"))
        #expect(node("Entry").contains("COLOR=\"#555555\""), "Entry itself is unchanged")
        // Attributes of Entry: body renamed from text, title added, mood removed.
        let entry = node("Entry")
        #expect(entry.contains("<FONT COLOR=\"\(renamed)\">body</FONT>"))
        #expect(entry.contains("(was text)"))
        #expect(entry.contains("<FONT COLOR=\"\(added)\">title</FONT>"))
        #expect(entry.contains("<S><FONT COLOR=\"\(removed)\">mood</FONT></S>"))
        #expect(entry.contains("<S><FONT COLOR=\"\(removed)\">author</FONT></S>"))
        // Edges: the new pair green, the removed pair red and dashed.
        let edges = Self.edges(dot)
        #expect(edges.count == 2, "\(edges)")
        #expect(
            edges.contains {
                $0.contains("\"Entry\":r0 -> \"Tag\":r0") && $0.contains("color=\"\(added)\"")
            })
        #expect(
            edges.contains {
                $0.contains("\"Entry\":r1 -> \"Person\":r0") && $0.contains("color=\"\(removed)\"")
                    && $0.contains("style=dashed")
            })
        #expect(dot.contains("<FONT COLOR=\"\(added)\">added</FONT>"), "the legend")
    }

    @Test func testMigrationToTheSameVersionColoursNothing() throws {
        let dot = try ModelDiagram(chain: Self.journalChain, from: 2, to: 2).dot
        for change in [DiagramChange.added, .removed, .renamed(from: "")] {
            #expect((Self.nodes(dot) + Self.edges(dot)).allSatisfy { !$0.contains(change.color) })
        }
    }

    @Test func testUnknownVersionIsRefused() {
        #expect(throws: DiagramError.self) {
            try ModelDiagram(chain: Self.journalChain, from: 1, to: 3)
        }
        do {
            _ = try ModelDiagram(chain: Self.journalChain, from: 2, to: 1)
            Issue.record("a backward migration was drawn")
        } catch {
            #expect(error.kind == .unknownVersion)
        }
    }
}
