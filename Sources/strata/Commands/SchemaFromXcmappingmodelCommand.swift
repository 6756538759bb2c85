import Foundation
import Strata

/// `strata schema from-xcmappingmodel FILE --schemas DIR [-o FILE]`: convert
/// one Core Data mapping model into a mapping file for a schema folder.
struct SchemaFromXcmappingmodelCommand: Command {
    static let name = "from-xcmappingmodel"
    static let abstract =
        "Convert a Core Data mapping model (.xcmappingmodel or .cdm) into a mapping file."
    static let usage = """
        USAGE: strata schema from-xcmappingmodel <file> --schemas <dir> [-o <file>]
                                                 [--from <n> --to <n>] [--report] [--force]

        ARGUMENTS:
          <file>              Name.xcmappingmodel (Xcode's package) or Name.cdm (compiled).

        OPTIONS:
          --schemas <dir>     The schema folder (1.json … n.json) whose versions the mapping
                              model joins; they are found by entity version hashes.
          -o, --output <file> The mapping file to write (default: <dir>/<from>-<to>.mapping.json).
          --from <n>, --to <n>
                              The versions, when several pairs hash alike.
          --report            Print what each entity mapping does.
          --force             Replace an existing file.
        """

    var file: String
    var schemas: String
    var output: String?
    var from: Int?
    var to: Int?
    var report: Bool
    var force: Bool

    static func parse(_ arguments: inout ArgumentList) throws -> Self {
        let force = arguments.flag("--force")
        let report = arguments.flag("--report")
        let output = try arguments.option("-o") ?? arguments.option("--output")
        let schemas = try arguments.option("--schemas")
        func version(_ name: String) throws -> Int? {
            guard let text = try arguments.option(name) else { return nil }
            guard let number = Int(text), number > 0 else {
                throw UsageError(
                    "\(name) expects a version number, found '\(text)'", command: Self.self)
            }
            return number
        }
        let from = try version("--from")
        let to = try version("--to")
        let file = try arguments.positional("<file>")
        try arguments.finish()
        guard let schemas else {
            throw UsageError("missing '--schemas <dir>'", command: Self.self)
        }
        return Self(
            file: file, schemas: schemas, output: output, from: from, to: to, report: report,
            force: force)
    }

    func run() throws {
        let chain: SchemaChain
        do {
            chain = try SchemaChain.load(directory: URL(fileURLWithPath: schemas))
        } catch {
            throw CommandFailure(message: "\(error)")
        }
        let converted = try MappingModelFiles.convert(
            [URL(fileURLWithPath: file)], versions: chain.versions,
            from: from, to: to
        )[0].converted
        let target = output ?? SchemaFromXcdatamodelCommand.join(schemas, converted.fileName)
        if FileManager.default.fileExists(atPath: target) && !force {
            throw CommandFailure(message: "\(target) already exists; use --force to replace it")
        }
        do {
            try converted.data.write(to: URL(fileURLWithPath: target), options: .atomic)
        } catch let error as CocoaError {
            throw CommandFailure(
                message: "\(target): cannot write the mapping file: "
                    + StoreActivity.reason(of: error))
        }
        Terminal.output(
            "Wrote \(target): from \(file), versions \(converted.from) → \(converted.to)"
                + SchemaFromXcdatamodelCommand.policyNote(converted))
        if report { Terminal.output(converted.report.description) }
    }
}
