import Foundation
import Strata

/// `strata schema hash FILE`: the Core Data version hashes of a schema
/// version, base64, as they appear in a store's metadata.
struct SchemaHashCommand: Command {
    static let name = "hash"
    static let abstract = "Print the Core Data version hashes of a schema version."
    static let usage = """
        USAGE: strata schema hash <path> [--version <n>] [--json]

        ARGUMENTS:
          <path>            A schema file, or a model folder (then the newest version).

        OPTIONS:
          --version <n>     The version to hash when <path> is a folder.
          --json            Print the hashes as JSON on stdout.
        """

    var path: String
    var version: Int?
    var json: Bool

    static func parse(_ arguments: inout ArgumentList) throws -> Self {
        let json = arguments.flag("--json")
        let version = try arguments.integerOption("--version")
        let path = try arguments.positional("<path>")
        try arguments.finish()
        return Self(path: path, version: version, json: json)
    }

    func run() throws {
        let model = try SchemaSource.loadModel(path, version: version)
        let hashes = model.versionHashes
        if json {
            let report = HashReport(
                model: model.name, version: model.version,
                entities: hashes.mapValues { Data($0).base64EncodedString() },
                checksum: model.versionChecksum, digest: model.versionHashesDigest)
            Terminal.output(try JSONOutput.encode(report))
            return
        }
        var rows = hashes.keys.sorted().map { [$0, Data(hashes[$0] ?? []).base64EncodedString()] }
        rows.append(["(checksum)", model.versionChecksum])
        rows.append(["(digest)", model.versionHashesDigest])
        Terminal.output("\(model.name) version \(model.version)")
        Terminal.output(TextTable.render(rows))
    }
}

/// The JSON form of the hashes.
private struct HashReport: Encodable {
    var model: String
    var version: Int
    var entities: [String: String]
    var checksum: String
    var digest: String
}
