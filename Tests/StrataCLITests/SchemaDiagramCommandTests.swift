import Foundation
import Strata
import Testing

/// `strata schema diagram`: every bundled model drawn as valid SVG with one
/// box per entity and one edge per inverse pair; the formats; the migration
/// colours; exit codes; and what happens without Graphviz.
struct SchemaDiagramCommandTests {
    /// Every model folder under `Schemas/`.
    static let models: [String] = {
        let folder = StrataRunner.packageRoot.appendingPathComponent("Schemas")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { !$0.hasPrefix(".") }.sorted()
    }()

    /// The titles of the SVG's `<g class="node">` and `<g class="edge">`
    /// groups (Graphviz's SVG); throws unless the file parses as XML.
    static func groups(_ path: String) throws -> (nodes: [String], edges: [String]) {
        let document = try XMLDocument(contentsOf: URL(fileURLWithPath: path))
        let groups = document.root.descendants(named: "g")
        func titles(_ kind: String) -> [String] {
            groups.filter { $0[attribute: "class"] == kind }.map {
                $0.child(named: "title")?.text ?? ""
            }
        }
        return (titles("node"), titles("edge"))
    }

    /// The edges a model should have: one per inverse pair, one per
    /// relationship without an inverse, one per subentity.
    static func expectedEdges(_ model: Model) -> Int {
        var sides: Set<String> = []
        var edges = 0
        for entity in model.entities {
            if entity.parent != nil { edges += 1 }
            for relationship in entity.relationships {
                guard sides.insert("\(entity.name).\(relationship.name)").inserted else { continue }
                edges += 1
                let inverse = model.entity(named: relationship.destination)?
                    .relationship(named: relationship.inverse)
                if let inverse, inverse.inverse == relationship.name {
                    sides.insert("\(relationship.destination).\(inverse.name)")
                }
            }
        }
        return edges
    }

    @Test func testThereAreBundledModels() {
        #expect(Self.models.contains("Recipes") && Self.models.contains("Diary"))
    }

    @Test(arguments: models)
    func testBundledModelDrawsAsValidSVG(model name: String) throws {
        let folder = try ScratchFolder()
        let output = folder.path("\(name).svg")
        let outcome = try StrataRunner.run(["schema", "diagram", "Schemas/\(name)", "-o", output])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let model = try SchemaChain.load(
            directory: StrataRunner.packageRoot.appendingPathComponent("Schemas/\(name)")
        ).newest
        #expect(
            outcome.stdout
                == "\(name) version \(model.version), \(model.entities.count) entities: wrote \(output)\n"
        )
        let (nodes, edges) = try Self.groups(output)
        #expect(nodes.sorted() == model.entities.map(\.name).sorted(), "one box per entity")
        #expect(edges.count == Self.expectedEdges(model), "one edge per inverse pair")
        // Each inverse pair is one edge between its two entities.
        for entity in model.entities {
            for relationship in entity.relationships where relationship.hasInverse {
                let between = edges.filter {
                    let ends = $0.components(separatedBy: "->").map {
                        $0.split(separator: ":").first.map(String.init) ?? ""
                    }
                    return Set(ends) == Set([entity.name, relationship.destination])
                }
                #expect(between.count >= 1, "\(entity.name).\(relationship.name)")
            }
        }
    }

    @Test func testRecipesPairsAreSingleEdges() throws {
        let folder = try ScratchFolder()
        let output = folder.path("r.svg")
        _ = try StrataRunner.run(["schema", "diagram", "Schemas/Recipes", "-o", output])
        let (_, edges) = try Self.groups(output)
        // Recipe–Ingredient, Recipe–RecipeType, Recipe–Image: three pairs.
        #expect(edges.count == 3, "\(edges)")
    }

    @Test func testPNGAndPDFAndDotFormats() throws {
        let folder = try ScratchFolder()
        for (file, magic) in [("m.png", "\u{89}PNG"), ("m.pdf", "%PDF"), ("m.gv", "digraph")] {
            let outcome = try StrataRunner.run(
                ["schema", "diagram", "Schemas/Diary", "-o", folder.path(file)])
            #expect(outcome.status == 0, "\(outcome.stderr)")
            let bytes = try Data(contentsOf: URL(fileURLWithPath: folder.path(file)))
            #expect(
                bytes.starts(with: Array(magic.unicodeScalars.map { UInt8($0.value) })), "\(file)")
        }
        let forced = try StrataRunner.run(
            ["schema", "diagram", "Schemas/Diary", "--format", "svg", "-o", folder.path("x.dot")])
        #expect(forced.status == 0)
        #expect(
            try Self.groups(folder.path("x.dot")).nodes.count > 0, "--format beats the extension")
    }

    @Test func testDotSourceGoesToStdoutWithoutOutput() throws {
        let outcome = try StrataRunner.run(["schema", "diagram", "Schemas/Recipes/1.json"])
        #expect(outcome.status == 0)
        #expect(outcome.stdout.hasPrefix("digraph \"Recipes version 1\" {\n"))
        #expect(outcome.stderr == "")
    }

    @Test func testMigrationDiagramColoursChanges() throws {
        let folder = try ScratchFolder()
        let output = folder.path("diff.svg")
        let outcome = try StrataRunner.run(
            ["schema", "diagram", "Schemas/Diary", "--from", "1", "--to", "3", "-o", output])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stdout == "Diary version 1 to 3: wrote \(output)\n")
        let svg = try String(contentsOf: URL(fileURLWithPath: output), encoding: .utf8)
        _ = try Self.groups(output)
        // Diary 1 → 3 adds Tag, title, subtitle and wordCount and renames
        // text to body (the legend names all three colours).
        #expect(svg.components(separatedBy: DiagramChange.added.color).count > 4)
        #expect(svg.components(separatedBy: DiagramChange.renamed(from: "").color).count > 2)
        #expect(svg.contains("was text"))
    }

    @Test func testUsageErrorsExit64() throws {
        let cases: [[String]] = [
            ["Schemas/Diary", "-o", "model.jpg"],
            ["Schemas/Diary", "--format", "gif", "-o", "m.svg"],
            ["Schemas/Diary", "--format", "svg"],
            ["Schemas/Diary", "--version", "1", "--from", "1", "--format", "dot"],
            ["Schemas/Diary", "--to", "2", "--format", "dot"],
            ["Schemas/Diary", "--from", "one"],
            [],
        ]
        for arguments in cases {
            let outcome = try StrataRunner.run(["schema", "diagram"] + arguments)
            #expect(outcome.status == 64, "\(arguments): \(outcome.stderr)")
            #expect(outcome.stderr.contains("USAGE: strata schema diagram"))
        }
    }

    @Test func testFailuresExit1AndWriteNothing() throws {
        let folder = try ScratchFolder()
        let cases: [([String], String)] = [
            (["Schemas/Nope", "-o", folder.path("a.svg")], "Schemas/Nope: no such file or folder"),
            (["Schemas/Diary", "--version", "99", "-o", folder.path("a.svg")], "no version 99"),
            (["Schemas/Diary", "--from", "99", "-o", folder.path("a.svg")], "has no version 99"),
            (
                ["Schemas/Diary", "--from", "2", "--to", "1", "-o", folder.path("a.svg")],
                "later version"
            ),
            (["Schemas/Diary", "-o", folder.path("missing/a.svg")], "cannot write"),
            (
                ["Samples/BrokenSchemas/Diary", "-o", folder.path("a.svg")],
                "problems in the schema"
            ),
        ]
        for (arguments, message) in cases {
            let outcome = try StrataRunner.run(["schema", "diagram"] + arguments)
            #expect(outcome.status == 1, "\(arguments): \(outcome.stderr)")
            #expect(outcome.stderr.contains(message), "\(arguments): \(outcome.stderr)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).isEmpty)
    }

    /// Without `dot` on PATH: a clear message naming Debian's package, no
    /// file; `--format dot` still works.
    @Test func testWithoutGraphvizNamesThePackageAndDotStillWorks() throws {
        let folder = try ScratchFolder()
        let strata = try StrataRunner.executable()
        let environment = ["PATH": folder.url.path]
        let svg = try ProgramRunner.run(
            strata, ["schema", "diagram", "Schemas/Recipes", "-o", folder.path("m.svg")],
            in: StrataRunner.packageRoot, environment: environment)
        #expect(svg.status == 1)
        #expect(svg.stderr.contains("install Debian's package 'graphviz'"), "\(svg.stderr)")
        #expect(svg.stderr.contains("--format dot"))
        #expect(!FileManager.default.fileExists(atPath: folder.path("m.svg")))
        let dot = try ProgramRunner.run(
            strata,
            [
                "schema", "diagram", "Schemas/Recipes", "--format", "dot", "-o",
                folder.path("m.txt"),
            ],
            in: StrataRunner.packageRoot, environment: environment)
        #expect(dot.status == 0, "\(dot.stderr)")
        let source = try String(contentsOfFile: folder.path("m.txt"), encoding: .utf8)
        #expect(source.hasPrefix("digraph "))
    }
}
