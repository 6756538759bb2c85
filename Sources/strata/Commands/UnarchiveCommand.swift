import Foundation
import Strata

/// `strata unarchive FILE.zip STORE`: a bundle back into a store, verified
/// first, created atomically (or merged into an existing one).
struct UnarchiveCommand: Command {
    static let name = "unarchive"
    static let abstract = "Restore a bundle into a new store (or merge it into one), verified."
    static let usage = """
        USAGE: strata unarchive <file.zip> <store> [--schemas <dir>] [--to <version>]
                                [--merge] [--progress] [--json]

        ARGUMENTS:
          <file.zip>           A strata-bundle/1 zip (strata archive).
          <store>              The store to create; an existing one is never replaced.

        OPTIONS:
          --schemas <dir>      The model folder: a bundle of an older version is migrated
                               through its chain (mappings included) to the newest version,
                               or to --to. Without it the store keeps the bundle's version.
                               A bundle newer than the folder's versions is refused.
          --to <version>       The version to write (with --schemas).
          --merge              Add the records to the existing <store>: objects matching one
                               of its uniqueness constraints update it, others are added.
          --progress           Report progress on stderr even when it is not a terminal
                               (objects of each entity; not while merging).
          --json               Print the summary as JSON.

        Before anything is written, the zip's names, sizes and compression ratios, the
        manifest and every file's SHA-256 are checked.
        """

    var bundle: String
    var store: String
    var schemas: String?
    var version: Int?
    var merges: Bool
    var progress: Bool
    var json: Bool

    static func parse(_ arguments: inout ArgumentList) throws -> Self {
        let schemas = try arguments.option("--schemas")
        let version = try arguments.integerOption("--to")
        let merges = arguments.flag("--merge")
        let progress = arguments.flag("--progress")
        let json = arguments.flag("--json")
        let bundle = try arguments.positional("<file.zip>")
        let store = try arguments.storePath("<store>")
        try arguments.finish()
        return Self(
            bundle: bundle, store: store, schemas: schemas, version: version, merges: merges,
            progress: progress, json: json)
    }

    func validate() throws {
        if version != nil, schemas == nil {
            throw UsageError("'--to' needs '--schemas'", command: Self.self)
        }
    }

    func run() throws {
        guard FileManager.default.fileExists(atPath: bundle) else {
            throw CommandFailure(message: "\(bundle): no such file")
        }
        var options = UnarchiveOptions()
        options.schemas = schemas.map { URL(fileURLWithPath: $0, isDirectory: true) }
        options.targetVersion = version
        options.merges = merges
        let bar = ProgressBar(forced: progress, label: bundle)
        let summary = try StoreActivity.run(store, "unarchive into the store") {
            defer { bar.finish() }
            return try BundleUnarchiver(bundle: URL(fileURLWithPath: bundle), options: options)
                .unarchive(to: URL(fileURLWithPath: store)) { bar.show($0) }
        }
        let migrated =
            summary.storeVersion != summary.bundleVersion
            ? ", migrated from version \(summary.bundleVersion) to \(summary.storeVersion)"
            : " at version \(summary.storeVersion)"
        Terminal.output(
            json
                ? try JSONOutput.encode(summary)
                : "\(merges ? "Merged" : "Unarchived") \(bundle) into \(store)\(migrated): "
                    + "\(BundleSummaryText.counts(summary)); \(summary.mediaFiles) media files "
                    + "verified (\(summary.mediaBytes) bytes)")
    }
}
