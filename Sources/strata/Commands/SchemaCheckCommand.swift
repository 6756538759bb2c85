import Foundation
import Strata

/// `strata schema check DIR|FILE`: validate a version chain or one file and
/// report every problem with its file and JSON path.
struct SchemaCheckCommand: Command {
    static let name = "check"
    static let abstract = "Validate a schema folder (a version chain) or one schema file."
    static let usage = """
        USAGE: strata schema check <path> [--json]

        ARGUMENTS:
          <path>    A model folder such as Schemas/Diary (versions 1.json, 2.json, …) or one file.

        OPTIONS:
          --json    Print the result as JSON on stdout.

        Warnings (on stderr; the exit status stays 0) name what Core Data allows but may
        surprise: a relationship without an inverse, a rename without renamedFrom, and the
        names `schema swift` renames in the newest version (an attribute named description,
        a Swift keyword, a name that is no identifier), with the Swift name it will use.
        """

    var path: String
    var json: Bool

    static func parse(_ arguments: inout ArgumentList) throws -> Self {
        let json = arguments.flag("--json")
        let path = try arguments.positional("<path>")
        try arguments.finish()
        return Self(path: path, json: json)
    }

    func run() throws {
        let chain: SchemaChain
        do {
            chain = try SchemaSource.loadChain(path)
        } catch let error as SchemaError where json {
            Terminal.output(
                try JSONOutput.encode(
                    SchemaCheckReport(
                        valid: false, issues: error.issues.map(\.description), warnings: [])))
            throw CommandFailure(message: "\(error.issues.count) problem(s) in \(path)")
        }
        var warnings: [SchemaIssue] = []
        for model in chain.versions {
            warnings += SchemaValidator().warnings(
                model, file: "\(model.name) version \(model.version)")
        }
        var isDirectory: ObjCBool = false
        let folder =
            FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
            && isDirectory.boolValue
        warnings += chain.renamingWarnings { version in
            folder
                ? URL(fileURLWithPath: path).appendingPathComponent("\(version).json").relativePath
                : path
        }
        // What `schema swift` (and the build plugin) would rename in the
        // newest version, by the generator's own rules.
        warnings += SwiftClassGenerator().renamings(
            chain.newest, file: SchemaSwiftCommand.file(of: chain.newest, in: path))
        for warning in warnings { Terminal.error("warning: \(warning)") }
        let versions = chain.versions.map(\.version)
        let summary =
            "\(chain.newest.name): \(versions.count) version(s) \(Self.range(versions)), "
            + "\(chain.newest.entities.count) \(chain.newest.entities.count == 1 ? "entity" : "entities") in the newest, no problems"
        if json {
            Terminal.output(
                try JSONOutput.encode(
                    SchemaCheckReport(
                        valid: true, issues: [], warnings: warnings.map(\.description))))
        } else {
            Terminal.output(summary)
        }
    }

    private static func range(_ versions: [Int]) -> String {
        guard let first = versions.first, let last = versions.last else { return "" }
        return first == last ? "(\(first))" : "(\(first)–\(last))"
    }
}

/// The JSON form of a check.
private struct SchemaCheckReport: Encodable {
    var valid: Bool
    var issues: [String]
    var warnings: [String]
}
