import Foundation
import Strata

/// `strata schema diagram PATH -o F.svg` or `strata schema diagram DIR
/// --from N --to M -o F.svg`: a model, or what a migration changes, drawn
/// by Graphviz.
struct SchemaDiagramCommand: Command {
    static let name = "diagram"
    static let abstract = "Draw a model, or what a migration changes, with Graphviz."
    static let usage = """
        USAGE: strata schema diagram <path> [-o <file>] [--format <f>] [--version <n>]
               strata schema diagram <folder> --from <n> [--to <m>] [-o <file>] [--format <f>]

        ARGUMENTS:
          <path>            A model folder (then the newest version) or a schema file.

        OPTIONS:
          -o, --output <file>  Where to write the diagram (default: the DOT source on stdout).
          --format <f>      svg, png, pdf or dot (default: from the file's extension;
                            .gv is dot). dot writes the graph source alone.
          --version <n>     The version to draw (default: the newest).
          --from <n>        Draw the migration from version n: what it adds (green),
                            removes (red) and renames (amber), on version --to.
          --to <m>          The version the migration moves to (default: the newest).

        Entities are boxes with their attributes and relationships; a relationship is
        an edge with one arrowhead for to-one and two for to-many, an inverse pair is
        one edge, inheritance a hollow triangle, abstract entities are in italics.
        Graphviz's dot (Debian's package graphviz) lays out svg, png and pdf.
        """

    var path: String
    var output: String?
    var format: DiagramFormat
    var version: Int?
    var from: Int?
    var to: Int?

    static func parse(_ arguments: inout ArgumentList) throws -> Self {
        let output = try arguments.option("-o") ?? arguments.option("--output")
        let formatName = try arguments.option("--format")
        let version = try arguments.integerOption("--version")
        let from = try arguments.integerOption("--from")
        let to = try arguments.integerOption("--to")
        let path = try arguments.positional("<path>")
        try arguments.finish()
        let format: DiagramFormat
        if let formatName {
            guard let named = DiagramFormat(rawValue: formatName) else {
                throw UsageError(
                    "unknown format '\(formatName)'; expected svg, png, pdf or dot",
                    command: Self.self)
            }
            format = named
        } else if let output {
            let fileExtension = URL(fileURLWithPath: output).pathExtension
            guard let implied = DiagramFormat(pathExtension: fileExtension) else {
                throw UsageError(
                    "cannot tell the format from '\(output)'; name a .svg, .png, .pdf or .dot "
                        + "file, or give --format", command: Self.self)
            }
            format = implied
        } else {
            format = .dot
        }
        return Self(
            path: path, output: output, format: format, version: version, from: from, to: to)
    }

    func validate() throws {
        if version != nil, from != nil || to != nil {
            throw UsageError(
                "give --version to draw a version, or --from (and --to) to draw a migration, "
                    + "not both", command: Self.self)
        }
        if to != nil, from == nil {
            throw UsageError("--to needs --from", command: Self.self)
        }
        if output == nil, format != .dot {
            throw UsageError(
                "give -o <file> to write \(format.rawValue); only dot goes to stdout",
                command: Self.self)
        }
    }

    func run() throws {
        let diagram: ModelDiagram
        let described: String
        if let from {
            let chain = try SchemaSource.loadChain(path)
            let to = to ?? chain.newest.version
            diagram = try ModelDiagram(chain: chain, from: from, to: to)
            described = "\(chain.name) version \(from) to \(to)"
        } else {
            let model = try SchemaSource.loadModel(path, version: version)
            diagram = ModelDiagram(model: model)
            described = "\(model.name) version \(model.version), \(model.entities.count) entities"
        }
        guard let output else {
            FileHandle.standardOutput.write(Data(diagram.dot.utf8))
            return
        }
        do {
            try Graphviz.render(diagram.dot, as: format, to: URL(fileURLWithPath: output))
        } catch {
            guard error.kind == .graphvizMissing else { throw error }
            throw CommandFailure(
                message: "\(error.message); --format dot writes the graph source without it")
        }
        Terminal.output("\(described): wrote \(output)")
    }
}
