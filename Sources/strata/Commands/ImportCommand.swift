import Foundation
import Strata

#if canImport(Glibc)
    import Glibc
#endif

/// `strata import STORE INPUT [--entity E] [--format F] …`: bulk-load a txt,
/// CSV, plist or JSON file into a store, checked by the schema's rules.
struct ImportCommand: Command {
    static let name = "import"
    static let abstract =
        "Bulk-load records from txt, CSV, TSV, plist, JSON or NDJSON into a store."
    static let usage = """
        USAGE: strata import <store> <input> [--entity <name>] [--format <format>]
                             [--schemas <dir>] [--map <field=property>]... [--mapping <file>]
                             [--columns <a,b,…>]
                             [--unique <a,b,…>] [--duplicates first|last|error]
                             [--on-error abort|skip] [--rejects <file> [--force]] [--dry-run]
                             [--progress] [--json] [reading and value options]

        ARGUMENTS:
          <store>              The store to import into. When it does not exist and
                               --schemas is given, it is created at the newest version.
          <input>              A file, or a folder of .txt files (txt-files).

        OPTIONS:
          --entity <name>      The entity records become (default: the group's name in a
                               plist or JSON, the model's only entity, or the only one
                               every field fits).
          --format <format>    csv, tsv, txt-lines, txt-blocks, txt-files, plist, json,
                               ndjson, or dayone (a Day One JSON export zip, into a Diary
                               of version 4 or later; default: from the extension, then
                               the contents; a zip with a <Journal>.json is Day One).
          --schemas <dir>      The model folder (default: the model recorded in the store).
          --map <field=prop>   Write input field <field> to property <prop> (repeatable);
                               --map field= leaves the field out.
          --mapping <file>     A strata-import/1 mapping file: field names, computed
                               attributes, options (the command line wins).
          --columns <a,b,…>    Names of the fields by position, for input without a header.
          --ignore-unknown     Leave out fields that match no property (default: refuse).
          --unique <a,b,…>     Attributes that identify an object: known ones are updated
                               (default: the entity's first uniqueness constraint).
          --duplicates <p>     Two records with one key in the input: first, last (default)
                               or error.
          --on-error <p>       abort (default): the import is one transaction and the first
                               bad record stops it, the store unchanged. skip: bad records
                               are left out (see --rejects), the rest commit in batches.
                               Day One: skip is the default (problems are reported by
                               entry uuid); abort stops at the first, nothing written.
          --rejects <file>     With --on-error skip, write bad records there, in the
                               input's format, with the reason in a strata_error field;
                               written at the end, only when a record was rejected (not
                               by --dry-run). Never the store, its -wal/-shm or the input.
          --force              Replace an existing --rejects file.
          --dry-run            Read, map and check everything; write nothing.
          --progress           Report progress on stderr even when it is not a terminal.
          --json               Print the summary as JSON.

        READING:
          --delimiter <c>      Field delimiter of csv/txt-lines: ',' ';' '|' or 'tab'.
          --quote <c>          The quote character of csv (default '"'; 'none' for none).
          --no-header          The first csv row is data (name fields with --columns).
          --path <p[=E]>       Read the records of the array at this dotted path of a JSON
                               document (components, metadata.tools), its other members
                               passed over; repeatable; =E names the records' entity.
          --encoding <e>       auto (default: UTF-8, or Windows-1252 when the first 64 KiB
                               are not UTF-8, with a note), utf-8, utf-16, latin-1 or
                               windows-1252; a byte-order mark wins.
          --file-name-into <a> txt-files: write each file's name within the folder,
                               extension kept (2024-05-01 Market.txt), to attribute <a>.

        VALUES:
          --date-format <p>    Read dates with this pattern (POSIX locale), not ISO 8601.
          --time-zone <id>     The time zone of --date-format dates (default UTC).
          --unix-dates         Read numeric dates as seconds since 1970.
          --null <a,b,…>       Cells that mean no value, e.g. NA,NULL,N/A: no value for
                               every attribute that is not text (text keeps the cell;
                               a mapping file's "fieldNulls" opts text attributes in).
          --media-dir <dir>    Binary fields that name files are relative to this folder
                               (default: the input's folder); paths may not leave it.
          --wait <seconds>     How long to wait while a migration holds the store (default 60).

        Exit status: 0 when imported (or, with --dry-run, when the import would succeed;
        with --on-error skip, also when records were rejected), 1 on failure, 64 for bad usage.
        """

    var store: String
    var input: String
    var schemas: String?
    var format: ImportFormat?
    /// `--format dayone`: a Day One JSON export zip.
    var dayOne = false
    /// The `--on-error` given, if any (Day One's default differs).
    var errorPolicy: ImportOptions.ErrorPolicy?
    var options: ImportOptions
    var reading: ImportReadingOptions
    var rejectsPath: String?
    /// `--force`: an existing rejects file may be replaced.
    var replacesRejects = false
    var json: Bool
    var forceProgress: Bool

    static func parse(_ arguments: inout ArgumentList) throws -> Self {
        var options = ImportOptions(entity: try arguments.option("--entity"))
        var reading = ImportReadingOptions()
        let formatName = try arguments.option("--format")
        var format: ImportFormat?
        let dayOne = formatName == "dayone"
        if let formatName, !dayOne {
            guard let known = ImportFormat(rawValue: formatName) else {
                throw UsageError(
                    "'--format' must be one of \((ImportFormat.allCases.map(\.rawValue) + ["dayone"]).joined(separator: ", ")), not '\(formatName)'",
                    command: Self.self)
            }
            format = known
        }
        while let pair = try arguments.option("--map") {
            guard let equals = pair.firstIndex(of: "=") else {
                throw UsageError(
                    "'--map' expects field=property, got '\(pair)'", command: Self.self)
            }
            options.fieldMap[String(pair[..<equals])] = String(pair[pair.index(after: equals)...])
        }
        if let columns = try arguments.option("--columns") {
            options.columns = columns.split(separator: ",", omittingEmptySubsequences: false).map {
                $0.trimmingCharacters(in: .whitespaces)
            }
        }
        options.ignoresUnknownFields = arguments.flag("--ignore-unknown")
        if let unique = try arguments.option("--unique") {
            options.uniqueKey = unique.split(separator: ",").map {
                $0.trimmingCharacters(in: .whitespaces)
            }
        }
        if let duplicates = try arguments.option("--duplicates") {
            guard let policy = ImportOptions.DuplicatePolicy(rawValue: duplicates) else {
                throw UsageError("'--duplicates' must be first, last or error", command: Self.self)
            }
            options.duplicates = policy
        }
        var errorPolicy: ImportOptions.ErrorPolicy?
        if let policy = try arguments.option("--on-error") {
            guard let known = ImportOptions.ErrorPolicy(rawValue: policy) else {
                throw UsageError("'--on-error' must be abort or skip", command: Self.self)
            }
            options.errorPolicy = known
            errorPolicy = known
        }
        let rejects = try arguments.option("--rejects")
        let force = arguments.flag("--force")
        options.isDryRun = arguments.flag("--dry-run")
        if let delimiter = try arguments.option("--delimiter") {
            reading.delimiter = try Self.character(delimiter, option: "--delimiter")
        }
        if let quote = try arguments.option("--quote") {
            reading.quote = quote == "none" ? nil : try Self.character(quote, option: "--quote")
        }
        if arguments.flag("--no-header") { reading.hasHeader = false }
        while let path = try arguments.option("--path") {
            let parts = path.split(separator: "=", maxSplits: 1).map(String.init)
            guard let key = parts.first, !key.isEmpty,
                !key.split(separator: ".", omittingEmptySubsequences: false).contains("")
            else {
                throw UsageError(
                    "'--path' expects a dotted path of keys (components, metadata.tools), "
                        + "optionally =Entity, got '\(path)'", command: Self.self)
            }
            reading.paths.append(key)
            if parts.count == 2 { options.pathEntities[key] = parts[1] }
        }
        if let encoding = try arguments.option("--encoding") {
            guard let known = TextEncoding(rawValue: encoding.lowercased()) else {
                throw UsageError(
                    "'--encoding' must be auto, utf-8, utf-16, latin-1 or windows-1252",
                    command: Self.self)
            }
            reading.encoding = known
        }
        if let attribute = try arguments.option("--file-name-into") {
            guard !attribute.isEmpty else {
                throw UsageError("'--file-name-into' needs an attribute's name", command: Self.self)
            }
            options.fileNameInto = attribute
        }
        options.dateFormat = try arguments.option("--date-format")
        if let zone = try arguments.option("--time-zone") {
            guard let known = TimeZone(identifier: zone) else {
                throw UsageError("'--time-zone': unknown time zone '\(zone)'", command: Self.self)
            }
            options.timeZone = known
        }
        options.unixDates = arguments.flag("--unix-dates")
        while let tokens = try arguments.option("--null") {
            options.nulls += tokens.split(separator: ",", omittingEmptySubsequences: false).map(
                String.init)
        }
        if let media = try arguments.option("--media-dir") {
            options.mediaFolder = URL(fileURLWithPath: media, isDirectory: true)
        }
        if let wait = try arguments.integerOption("--wait") {
            guard wait >= 0 else {
                throw UsageError("'--wait' must be 0 or more", command: Self.self)
            }
            options.lockTimeout = TimeInterval(wait)
        }
        if let mapping = try arguments.option("--mapping") {
            do {
                try ImportMappingFile.apply(mapping, to: &options)
            } catch let error as ImportError {
                throw CommandFailure(message: error.description)
            }
        }
        let schemas = try arguments.option("--schemas")
        let json = arguments.flag("--json")
        let progress = arguments.flag("--progress")
        let store = try arguments.storePath("<store>")
        let input = try arguments.positional("<input>")
        try arguments.finish()
        if rejects != nil, options.errorPolicy != .skip {
            throw UsageError("'--rejects' needs '--on-error skip'", command: Self.self)
        }
        if dayOne, rejects != nil {
            throw UsageError("'--rejects' does not apply to '--format dayone'", command: Self.self)
        }
        if force, rejects == nil {
            throw UsageError("'--force' replaces a '--rejects' file; give one", command: Self.self)
        }
        return Self(
            store: store, input: input, schemas: schemas, format: format, dayOne: dayOne,
            errorPolicy: errorPolicy, options: options,
            reading: reading, rejectsPath: rejects, replacesRejects: force, json: json,
            forceProgress: progress)
    }

    private static func character(_ text: String, option: String) throws -> UInt8 {
        switch text {
        case "tab", "\\t", "\t": return UInt8(ascii: "\t")
        default:
            guard text.utf8.count == 1, let byte = text.utf8.first, byte < 0x80 else {
                throw UsageError(
                    "'\(option)' must be one ASCII character (or 'tab')", command: Self.self)
            }
            return byte
        }
    }

    func run() throws {
        try StoreActivity.run(
            store, options.isDryRun ? "check the import" : "import into the store"
        ) {
            try importInput()
        }
    }

    private func importInput() throws {
        guard FileManager.default.fileExists(atPath: input) else {
            throw CommandFailure(message: "\(input): no such file or folder")
        }
        if RejectsFile.isSame(input, store) {
            throw CommandFailure(
                message: "\(input): cannot import: the input is the store itself; give the "
                    + "file of records to import after the store; nothing was changed")
        }
        let isDayOne = dayOne || (format == nil && DayOneImporter.looksLikeExport(at: input))
        if let attribute = options.fileNameInto,
            let kind = isDayOne
                ? "a Day One export" : (format ?? ImportFormat.guess(path: input))?.rawValue,
            kind != ImportFormat.txtFiles.rawValue
        {
            throw CommandFailure(
                message: "\(input): --file-name-into \(attribute) records the name of each file "
                    + "of a txt-files folder, and the input is \(kind); nothing was changed")
        }
        if isDayOne { return try importDayOne() }
        guard let format = format ?? ImportFormat.guess(path: input) else {
            throw CommandFailure(message: "\(input): cannot tell the format; give --format")
        }
        if !reading.paths.isEmpty, format != .json {
            throw CommandFailure(
                message: "\(input): --path reads arrays inside a JSON document, and the input is "
                    + "\(format.rawValue)")
        }
        // Checked before anything is read or a store is made; a dry run
        // writes none.
        if let rejectsPath {
            _ = try RejectsFile(
                path: rejectsPath,
                companions: [.txtLines, .txtFiles].contains(format) ? [".reasons.txt"] : [],
                replacing: replacesRejects, store: store, input: input)
        }
        let summary = try withTargetStore { target, model in
            try importInput(format: format, into: target, model: model)
        }
        Terminal.output(
            json ? try JSONOutput.encode(summary) : ImportSummaryText.render(summary, store: store))
        if !json {
            for note in summary.notes { Terminal.error("note: \(note)") }
        }
    }

    /// Runs `body` on the store to import into and its model: the store
    /// there, or a new one at the newest version of --schemas (a dry run's
    /// in a scratch folder; ``Store/withStore(at:isDryRun:newModel:_:)``).
    func withTargetStore<T>(_ body: (Store, Model) throws -> T) throws -> T {
        try Store.withStore(
            at: URL(fileURLWithPath: store), isDryRun: options.isDryRun,
            newModel: {
                guard let schemas else {
                    throw CommandFailure(
                        message: "\(store): no such store; give --schemas to create it")
                }
                return try SchemaSource.loadChain(schemas).newest
            }
        ) { target, origin in
            switch origin {
            case .opened:
                try body(target, try StoreModelSource.model(of: target, schemas: schemas))
            case .created(let model): try body(target, model)
            }
        }
    }

    /// The import itself: the library's one call, with the command's
    /// progress bar.
    private func importInput(
        format: ImportFormat, into store: Store, model: Model
    ) throws -> ImportSummary {
        var options = self.options
        options.format = format
        options.reading = reading
        options.rejectsFile = rejectsPath.map { URL(fileURLWithPath: $0) }
        options.replacesRejects = replacesRejects
        let bar = ProgressBar(forced: forceProgress, label: input)
        defer { bar.finish() }
        return try Importer.import(
            URL(fileURLWithPath: input), into: store, model: model, options: options,
            progress: { bar.show($0) })
    }
}
