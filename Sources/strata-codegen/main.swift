// strata-codegen SCHEMA-FOLDER -o FILE.swift [--version N]
//
// The StrataModelPlugin's build tool: the typed Swift classes of a schema
// folder's newest version (or version N), as `strata schema swift` writes
// them. Messages use the compiler's `file: warning:` form so that build
// logs and IDEs show them at the schema file.
import Foundation
import StrataCodegen
import StrataSchema

/// Writes `text` and a newline to stderr.
func report(_ text: String) {
    FileHandle.standardError.write(Data((text + "\n").utf8))
}

/// The command's options, or nil (after a usage message) when they are wrong.
func parse(_ arguments: [String]) -> (folder: String, output: String, version: Int?)? {
    var folder: String?
    var output: String?
    var version: Int?
    var rest = arguments[...]
    while let argument = rest.popFirst() {
        switch argument {
        case "-o", "--output": output = rest.popFirst()
        case "--version":
            guard let text = rest.popFirst(), let number = Int(text) else { return nil }
            version = number
        default:
            guard folder == nil, !argument.hasPrefix("-") else { return nil }
            folder = argument
        }
    }
    guard let folder, let output else { return nil }
    return (folder, output, version)
}

guard let options = parse(Array(CommandLine.arguments.dropFirst())) else {
    report("usage: strata-codegen <schema-folder> -o <file.swift> [--version <n>]")
    exit(64)
}
do {
    let chain = try SchemaChain.load(directory: URL(fileURLWithPath: options.folder))
    guard let model = options.version.map({ chain.model(version: $0) }) ?? chain.newest else {
        report("\(options.folder): error: no version \(options.version ?? 0)")
        exit(1)
    }
    let file = (options.folder as NSString).appendingPathComponent("\(model.version).json")
    let generated = try SwiftClassGenerator().generate(model, file: file)
    for warning in generated.warnings {
        report("\(warning.file): warning: \(warning.path): \(warning.message)")
    }
    try generated.write(to: URL(fileURLWithPath: options.output))
} catch let error as CodegenError {
    for issue in error.issues { report("\(issue.file): error: \(issue.path): \(issue.message)") }
    exit(1)
} catch {
    report("\(options.folder): error: \(error)")
    exit(1)
}
