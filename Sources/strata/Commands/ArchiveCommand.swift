import Foundation
import Strata
import StrataWeb

/// `strata archive STORE -o FILE.zip`: the whole store as a portable,
/// verifiable `strata-bundle/1` zip.
struct ArchiveCommand: Command {
    static let name = "archive"
    static let forceReplacesOutput = true
    static let abstract = "Write a whole store, media included, to a portable zip bundle."
    static let usage = """
        USAGE: strata archive <store> -o <file.zip> [--schemas <dir>] [--with-html] [--force]
                              [--progress] [--json]

        ARGUMENTS:
          <store>              A Core Data SQLite store (one Core Data wrote included).

        OPTIONS:
          -o, --output <zip>   The bundle to write. An existing file is not replaced unless
                               --force is given.
          --schemas <dir>      The model folder (default: the model recorded in the store).
          --with-html          Carry the store as a static web site too, under html/ (open
                               html/index.html in any browser; strata export --format html).
          --force              Replace an existing file (atomically).
          --progress           Report progress on stderr even when it is not a terminal
                               (objects of each entity).
          --json               Print the summary as JSON.

        The bundle (strata-bundle/1) holds manifest.json (counts and a SHA-256 per file),
        schema.json, data/<Entity>.jsonl (one object a line, relationships as ids),
        media/<sha256>.<ext> (every media binary once) and a README.txt. The same store
        always gives the same bytes.
        """

    var store: String
    var output: String
    var schemas: String?
    var force: Bool
    var progress: Bool
    var json: Bool
    var withHTML = false

    static func parse(_ arguments: inout ArgumentList) throws -> Self {
        let output = try arguments.option("-o") ?? arguments.option("--output")
        let schemas = try arguments.option("--schemas")
        let force = arguments.flag("--force")
        let withHTML = arguments.flag("--with-html")
        let progress = arguments.flag("--progress")
        let json = arguments.flag("--json")
        let store = try arguments.storePath("<store>")
        try arguments.finish()
        guard let output else { throw UsageError("missing '-o <file.zip>'", command: Self.self) }
        return Self(
            store: store, output: output, schemas: schemas, force: force, progress: progress,
            json: json, withHTML: withHTML)
    }

    func run() throws {
        let summary = try StoreActivity.run(store, "archive the store") { () -> BundleSummary in
            let opened = try Store.open(at: URL(fileURLWithPath: store), mode: .readOnly)
            defer { try? opened.close() }  // Read-only: nothing to lose on close.
            let model = try StoreModelSource.model(of: opened, schemas: schemas)
            let archiver = BundleArchiver(store: opened, model: model)
            var site: URL?
            defer { site.map { WorkFiles.remove($0.deletingLastPathComponent()) } }
            if withHTML {
                let scratch = try WorkFiles.makeFolderBesideOrPrivate(
                    for: URL(fileURLWithPath: output), activity: "archiving-html")
                let folder = scratch.appendingPathComponent("html", isDirectory: true)
                site = folder
                let options = try StoreSite.Options.command(schemas: schemas, showing: store)
                try StaticSiteExporter(storeAt: URL(fileURLWithPath: store), options: options)
                    .export(to: folder)
                archiver.extraFiles = (folder, BundleManifest.siteFolder)
            }
            let bar = ProgressBar(forced: progress, label: output)
            defer { bar.finish() }
            return try archiver.archive(to: URL(fileURLWithPath: output), replacing: force) {
                bar.show($0)
            }
        }
        Terminal.output(
            json
                ? try JSONOutput.encode(summary)
                : "Archived \(store) (\(summary.model) version \(summary.bundleVersion)) to "
                    + "\(output): \(BundleSummaryText.counts(summary)); \(summary.mediaFiles) "
                    + "media files (\(summary.mediaBytes) bytes); \(summary.zipBytes) bytes")
    }
}

/// Counts of a bundle summary, as `3 DiaryEntry, 3 Medium, 4 Tag`.
enum BundleSummaryText {
    static func counts(_ summary: BundleSummary) -> String {
        summary.counts.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }
            .joined(separator: ", ")
    }
}
