import Foundation
import Strata
import StrataWeb

/// `strata export STORE [--entity E] -o FILE [--format F] …`: write the
/// objects of an entity (or a fetch) to CSV, TSV, txt lines, txt blocks, a
/// folder of txt files, a plist, JSON or NDJSON, in a form `strata import`
/// reads back to the same values.
struct ExportCommand: Command {
    static let name = "export"
    static let forceReplacesOutput = true
    static let abstract =
        "Write an entity's objects to CSV, TSV, txt lines, blocks or files, plist, JSON or NDJSON."
    static let usage = """
        USAGE: strata export <store> [--entity <name>] -o <file> [--format <format>]
                             [--where <predicate>] [--arg <value>]... [--sort <keys>]
                             [--limit <n>] [--fields <a,b,…>] [--nest <relationship>]...
                             [--ids] [--media-dir <dir>] [--delimiter <c>] [--title <field>]
                             [--body <field>] [--schemas <dir>] [--force] [--progress] [--json]

        ARGUMENTS:
          <store>              A Core Data SQLite store (one Core Data wrote included); for
                               --format html, a strata-bundle/1 zip too.

        OPTIONS:
          --entity <name>      The entity to write (default: the model's only entity).
          -o, --output <file>  The file to write (a folder for txt-files); '-' for standard
                               output. An existing file, or a folder with files in it, is
                               not replaced unless --force is given.
          --format <format>    csv, tsv, txt-lines, txt-blocks, txt-files, plist, json,
                               ndjson, dayone (a Day One JSON export zip of the whole
                               diary), or html (the whole store as a static web site in the
                               new folder <file>, as strata serve shows it; default: from the extension of <file>: .csv, .tsv,
                               .txt (txt blocks), .plist, .json, .ndjson or .jsonl).
          --where <predicate>  Only objects matching an NSPredicate format string.
          --arg <value>        A value for the next %@ of the predicate.
          --sort <keys>        Comma-separated key paths; a leading '-' sorts descending.
          --limit <n>          At most n objects.
          --fields <a,b,…>     The fields to write, in order: attributes, relationships
                               (written as ids, Entity/p<pk>), and key paths through to-one
                               relationships (species.name: the related object's value,
                               under that name). Default: every attribute, in the order
                               the schema lists them.
          --nest <rel>         Write the related objects of <rel> nested, in order, with
                               their attributes (plist, JSON); repeatable.
          --ids                Start each record with an _id field (Entity/p<pk>).
          --media-dir <dir>    Write binaries as files named <sha256>.<ext> in <dir>, each
                               content once, and their paths in the records (default: base64).
          --delimiter <c>      txt-lines: the byte between fields (',' ';' '|' or 'tab');
                               without it each line is one field. Read the lines back with
                               import --format txt-lines, the same --delimiter and
                               --columns (the summary names them). No quoting: a value
                               with the delimiter or a line break, or empty text, is refused.
          --title <field>      txt-files: the field written as each file's first line
                               (default: title, name or subject). Import reads it as 'title'
                               (--map title=<field> when it has another name) and adds each
                               file's time as 'modified' (--map modified= leaves it out).
          --body <field>       The field written as a txt block's or file's body (default:
                               body, text or notes).
          --schemas <dir>      The model folder (default: the model recorded in the store).
          --force              Replace an existing output file or folder.
          --progress           Report progress on stderr even when it is not a terminal.
          --json               Print the summary as JSON.

        txt-files writes one <number> <title>.txt file per object into a new folder: header
        lines (Key: value) for the other fields, the title line, a blank line, the body.
        """

    var store: String
    var entity: String?
    var output: String
    var format: ExportFormat?
    /// `--format dayone`: the whole diary as a Day One export zip.
    var dayOne = false
    /// `--format html`: the whole store as a static web site.
    var html = false
    var predicate: String?
    var arguments: [String]
    var sort: String?
    var limit: Int?
    var fields: [String]?
    var nested: [String]
    var ids: Bool
    var mediaDirectory: String?
    var body: String?
    var delimiter: UInt8?
    var title: String?
    var schemas: String?
    var force: Bool
    var progress: Bool
    var json: Bool

    static func parse(_ arguments: inout ArgumentList) throws -> Self {
        let entity = try arguments.option("--entity")
        let output = try arguments.option("-o") ?? arguments.option("--output")
        var format: ExportFormat?
        var dayOne = false
        var html = false
        if let name = try arguments.option("--format") {
            if name == "dayone" {
                dayOne = true
            } else if name == "html" {
                html = true
            } else {
                guard let known = ExportFormat(rawValue: name) else {
                    throw UsageError(
                        "'--format' must be one of \((ExportFormat.allCases.map(\.rawValue) + ["dayone", "html"]).joined(separator: ", ")), not '\(name)'",
                        command: Self.self)
                }
                format = known
            }
        }
        let predicate = try arguments.option("--where")
        var values: [String] = []
        while let value = try arguments.option("--arg") { values.append(value) }
        let sort = try arguments.option("--sort")
        let limit = try arguments.integerOption("--limit")
        let fields = try arguments.option("--fields").map {
            $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        }
        var nested: [String] = []
        while let name = try arguments.option("--nest") { nested.append(name) }
        let ids = arguments.flag("--ids")
        let media = try arguments.option("--media-dir")
        let body = try arguments.option("--body")
        let delimiter = try arguments.option("--delimiter").map(Self.delimiter)
        let title = try arguments.option("--title")
        let schemas = try arguments.option("--schemas")
        let force = arguments.flag("--force")
        let progress = arguments.flag("--progress")
        let json = arguments.flag("--json")
        let store = try arguments.storePath("<store>")
        try arguments.finish()
        guard let output else {
            throw UsageError("missing '-o <file>'", command: Self.self)
        }
        var parsed = Self(
            store: store, entity: entity, output: output, format: format, dayOne: dayOne,
            predicate: predicate, arguments: values, sort: sort, limit: limit, fields: fields,
            nested: nested, ids: ids, mediaDirectory: media, body: body, delimiter: delimiter,
            title: title, schemas: schemas, force: force, progress: progress, json: json)
        parsed.html = html
        return parsed
    }

    /// The byte `text` names: one ASCII character, or `tab`.
    private static func delimiter(_ text: String) throws -> UInt8 {
        if text == "tab" || text == "\\t" || text == "\t" { return UInt8(ascii: "\t") }
        guard text.utf8.count == 1, let byte = text.utf8.first, byte < 0x80, byte != 0x0A,
            byte != 0x0D
        else {
            throw UsageError(
                "'--delimiter' must be one ASCII character (or 'tab'), not '\(text)'",
                command: Self.self)
        }
        return byte
    }

    func validate() throws {
        if let limit, limit < 0 {
            throw UsageError("'--limit' must be 0 or more", command: Self.self)
        }
        if predicate == nil, !arguments.isEmpty {
            throw UsageError("'--arg' needs a '--where' predicate", command: Self.self)
        }
        if html {
            return try checkWholeStore("html", writes: "a folder; give -o <folder>", of: "store")
        }
        if dayOne {
            return try checkWholeStore("dayone", writes: "a zip file; give -o <file>", of: "diary")
        }
        if format == nil, output == "-" || ExportFormat.guess(path: output) == nil {
            throw UsageError(
                "cannot tell the format from '\(output)'; give --format", command: Self.self)
        }
        if delimiter != nil, format != .txtLines {
            throw UsageError("'--delimiter' applies to '--format txt-lines'", command: Self.self)
        }
        if title != nil, format != .txtFiles {
            throw UsageError("'--title' applies to '--format txt-files'", command: Self.self)
        }
        if format == .txtFiles, output == "-" {
            throw UsageError(
                "'--format txt-files' writes a folder; give -o <folder>", command: Self.self)
        }
    }

    /// The options a format that writes the whole store (`dayone`,
    /// `html`) takes: -o (a file or folder, not stdout), --schemas, --force
    /// and --json.
    private func checkWholeStore(_ format: String, writes: String, of whole: String) throws {
        guard output != "-" else {
            throw UsageError("'--format \(format)' writes \(writes)", command: Self.self)
        }
        guard entity == nil, predicate == nil, sort == nil, limit == nil, fields == nil,
            nested.isEmpty, !ids, mediaDirectory == nil, body == nil, delimiter == nil,
            title == nil, !progress
        else {
            throw UsageError(
                "'--format \(format)' writes the whole \(whole); "
                    + "it takes only -o, --schemas, --force and --json",
                command: Self.self)
        }
    }

    func run() throws {
        if html { return try exportSite() }
        try StoreActivity.run(store, "export from the store") { try export() }
    }

    /// `--format html`: the store (or a bundle, restored to a temporary
    /// store first) as a static site.
    private func exportSite() throws {
        let served = try ServedStore(store, schemas: schemas)
        defer { served.remove() }
        let options = try StoreSite.Options.command(schemas: schemas, showing: store)
        let summary = try StoreActivity.run(served.store.path, "export the store as a web site") {
            try StaticSiteExporter(storeAt: served.store, options: options)
                .export(to: URL(fileURLWithPath: output, isDirectory: true), replacing: force)
        }
        Terminal.output(
            json
                ? try JSONOutput.encode(summary)
                : "Exported \(store) as a web site to \(output): \(summary.pages) pages, "
                    + "\(summary.mediaFiles) media files (\(summary.bytes) bytes); open "
                    + "\(output)/index.html")
    }

    private func export() throws {
        let opened = try Store.open(at: URL(fileURLWithPath: store), mode: .readOnly)
        defer { try? opened.close() }  // Read-only: nothing to lose on close.
        let model = try StoreModelSource.model(of: opened, schemas: schemas)
        if dayOne { return try exportDayOne(opened, model: model) }
        let concrete = model.entities.filter { !$0.isAbstract }.map(\.name).sorted()
        guard let entity = entity ?? (concrete.count == 1 ? concrete.first : nil) else {
            throw CommandFailure(
                message: "\(store): give --entity (entities: \(concrete.joined(separator: ", ")))")
        }
        var options = ExportOptions(entity: entity)
        if let predicate {
            if model.entity(named: entity) != nil {
                let parsed = try FetchPredicate(
                    predicate, textArguments: arguments, entity: entity, model: model)
                try parsed.check(entity: entity, model: model, format: predicate)
                options.predicate = parsed
            }
        }
        for key in (sort ?? "").split(separator: ",") {
            options.sortDescriptors.append(
                SortDescriptor(
                    String(key.drop { $0 == "-" || $0 == "+" }).trimmingCharacters(
                        in: .whitespaces),
                    ascending: !key.hasPrefix("-")))
        }
        options.limit = limit ?? 0
        options.fields = fields
        options.nested = nested
        options.includesIDs = ids
        options.bodyField = body
        options.delimiter = delimiter
        options.titleField = title
        options.replacesExisting = force
        if let mediaDirectory {
            options.binaries = .files(URL(fileURLWithPath: mediaDirectory, isDirectory: true))
        }
        let format = self.format ?? ExportFormat.guess(path: output) ?? .csv
        let bar = ProgressBar(forced: progress, label: output == "-" ? store : output)
        let summary: ExportSummary
        do {
            defer { bar.finish() }
            summary = try Exporter(store: opened, model: model, options: options)
                .run(to: output, format: format) { bar.show($0) }
        }
        var text =
            json
            ? try JSONOutput.encode(summary)
            : "Exported \(summary.records) \(entity) to \(output) (\(summary.format), "
                + "\(summary.bytes) bytes"
                + (summary.mediaFiles > 0 ? ", \(summary.mediaFiles) media files" : "") + ")"
        if !json, let columns = summary.columns {
            let flag = delimiter.map {
                " --delimiter " + ($0 == UInt8(ascii: "\t") ? "tab" : "'\(UnicodeScalar($0))'")
            }
            text +=
                "\nRead it back with: strata import <store> \(output) --format txt-lines"
                + (flag ?? "") + " --columns " + columns.joined(separator: ",")
        }
        if output == "-" {
            Terminal.error(text)
        } else {
            Terminal.output(text)
        }
    }
}
