import Foundation
import Strata

/// `strata schema swift DIR [--version N] -o FILE.swift`: typed Swift
/// classes of a schema version (the newest by default), as the
/// `StrataModelPlugin` generates them at build time.
struct SchemaSwiftCommand: Command {
    static let name = "swift"
    static let abstract =
        "Write typed Swift classes (ManagedObject subclasses) of a schema version."
    static let usage = """
        USAGE: strata schema swift <path> [--version <n>] -o <file.swift>

        ARGUMENTS:
          <path>                A model folder (the newest version), or one schema file.

        OPTIONS:
          --version <n>         The version to generate when <path> is a folder.
          -o, --output <file>   The Swift file to write (replaced atomically).

        Names that are not Swift identifiers are renamed, with a warning on stderr;
        names that then collide are an error, and nothing is written.
        """

    var path: String
    var version: Int?
    var output: String

    static func parse(_ arguments: inout ArgumentList) throws -> Self {
        let version = try arguments.integerOption("--version")
        let output = try arguments.option("-o") ?? arguments.option("--output")
        let path = try arguments.positional("<path>")
        try arguments.finish()
        guard let output else { throw UsageError("missing '-o <file.swift>'", command: Self.self) }
        return Self(path: path, version: version, output: output)
    }

    func run() throws {
        let model = try SchemaSource.loadModel(path, version: version)
        let file = Self.file(of: model, in: path)
        let generated: GeneratedSwift
        do {
            generated = try SwiftClassGenerator().generate(model, file: file)
        } catch let error as CodegenError {
            throw CommandFailure(message: "\(error)\nnothing was written")
        }
        for warning in generated.warnings { Terminal.error("warning: \(warning)") }
        try generated.write(to: URL(fileURLWithPath: output))
        Terminal.error(
            "wrote \(output): \(model.entities.count) classes of \(model.name) "
                + "version \(model.version)")
    }

    /// The schema file the model came from, for messages.
    static func file(of model: Model, in path: String) -> String {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory),
            isDirectory.boolValue
        else { return path }
        return (path as NSString).appendingPathComponent("\(model.version).json")
    }
}
