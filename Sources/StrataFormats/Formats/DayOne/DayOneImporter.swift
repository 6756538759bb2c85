import Foundation
import StrataContext
import StrataCore
import StrataSchema
import StrataStore

/// Imports a Day One JSON export (a zip of one `<Journal>.json` and the
/// `photos/`, `audios/`, `videos/` and `pdfs/` folders of `<md5>.<ext>`
/// files) into a Diary store of version 4 or later.
///
/// ```swift
/// let store = try Store.open(at: storeURL)
/// let model = try store.resolveModel(schemas: nil).requiredModel()
/// let summary = try DayOneImporter(store: store, model: model)
///     .run(exportURL)
/// print(summary.imported, summary.problems.count)
/// ```
///
/// The zip goes through ``ZipReader`` (no traversal, links, duplicates or
/// bombs). The JSON is streamed entry by entry (``JSONRecordReader``), and
/// each entry's media are read from the zip when the entry is written, so
/// memory holds one entry and its media at a time. Entries are written into
/// a scratch store first, then merged into the store in one transaction,
/// matched by uuid (entries), identifier (media) and name (tags): importing
/// the same export again updates, never duplicates. A document that is not
/// a Day One export (no `entries` array, no `metadata` object, broken JSON)
/// is an ``ImportError`` at its key path and nothing is written; a problem
/// with one entry (of the wrong shape too) or file is a ``DayOneProblem``,
/// reported with the entry's uuid, that entry skipped and the rest imported
/// (unless ``DayOneImportOptions/errorPolicy`` is `abort`). A medium whose
/// file's MD5 is not the one the entry gives is left out, its entry kept.
public final class DayOneImporter {
    /// The store written to.
    public let store: Store
    /// The store's model: a Diary of version 4 or later.
    public let model: Model
    /// How to import.
    public let options: DayOneImportOptions

    var summary = DayOneImportSummary()
    /// The export's path, as given, for messages.
    var zipName = ""

    /// Prepares an import into `store`, whose version `model` is.
    ///
    /// - Throws: ``ImportError`` when `model` is not a Diary that has what
    ///   Day One needs (migrate the store to version 4 first);
    ///   ``StoreError`` when `model` is not the store's version.
    public init(store: Store, model: Model, options: DayOneImportOptions = DayOneImportOptions())
        throws
    {
        if let mismatch = store.versionMismatch(with: model) {
            throw StoreError(.unknownVersion, path: store.path, message: mismatch)
        }
        try Self.checkModel(model, path: store.path)
        self.store = store
        self.model = model
        self.options = options
    }

    /// What finds an object already in the store: entries by uuid, media by
    /// identifier, tags by name.
    static let matchingKeys = [
        "DiaryEntry": ["uuid"], "Medium": ["identifier"], "Tag": ["name"],
    ]

    /// The attributes Day One's data needs, by entity.
    static let requiredAttributes: [String: [String]] = [
        "DiaryEntry": DayOneField.entry.map(\.attribute) + DayOneField.location.map(\.attribute)
            + DayOneField.weather.map(\.attribute) + ["title", "wordCount", "dayOneExtra"],
        "Medium": DayOneField.medium.map(\.attribute) + ["type", "data", "format", "dayOneExtra"],
        "Tag": ["name"],
    ]

    /// The key of the store's metadata holding the name of the journal
    /// imported last (`Dev Journal` for `Dev Journal.json`; the first one of
    /// an export with several): ``DayOneExporter`` names its JSON after it.
    /// The Diary has no entity for journals, and the name is the store's,
    /// not an entry's.
    static let journalNameKey = "StrataDayOneJournal"

    /// The journal name of a `<Journal>.json` at the top of the zip; nil
    /// for a name that cannot be one (empty, or with a path separator).
    static func journalName(ofFile path: String) -> String? {
        guard path.lowercased().hasSuffix(".json") else { return nil }
        let name = String(path.dropLast(5))
        guard !name.isEmpty, !name.contains("/"), !name.contains("\\"),
            !name.unicodeScalars.contains(where: { $0.value < 0x20 })
        else { return nil }
        return name
    }

    /// The journal name recorded in `metadata` by an import, if any.
    static func recordedJournalName(in metadata: StoreMetadata) -> String? {
        guard case .text(let name)? = metadata.otherKeys[journalNameKey] else { return nil }
        return journalName(ofFile: name + ".json")
    }

    /// Throws unless `model` has every entity and attribute Day One needs.
    static func checkModel(_ model: Model, path: String) throws {
        for (entity, attributes) in requiredAttributes.sorted(by: { $0.key < $1.key }) {
            let known = Set(model.allAttributes(of: entity).map(\.name))
            let missing = attributes.filter { !known.contains($0) }
            guard model.entity(named: entity) != nil, missing.isEmpty else {
                throw ImportError(
                    .structure, at: SourcePosition(file: path),
                    "\(model.name) version \(model.version) has no \(entity)"
                        + (missing.isEmpty ? "" : ".\(missing.sorted().joined(separator: ", ."))")
                        + "; Day One needs the Diary of version 4 or later (migrate the store first)"
                )
            }
        }
    }

    /// Imports the export at `url`.
    ///
    /// - Returns: What was imported and every problem found.
    /// - Throws: ``ArchiveError`` for a hostile or damaged zip;
    ///   ``ImportError`` for a JSON of the wrong shape (at its key path) or,
    ///   with the `abort` policy, for the first problem; store errors. The
    ///   store is unchanged when it throws.
    @discardableResult
    public func run(_ url: URL) throws -> DayOneImportSummary {
        let start = Date()
        summary = DayOneImportSummary()
        summary.isDryRun = options.isDryRun
        zipName = url.relativePath
        let zip = try ZipReader(contentsOf: url, limits: options.zipLimits)
        let journals = zip.entries.filter {
            $0.kind == .file && !$0.path.contains("/") && $0.path.lowercased().hasSuffix(".json")
        }
        guard !journals.isEmpty else {
            throw ImportError(
                .structure, at: SourcePosition(file: zipName),
                "no <Journal>.json at the top of the zip: not a Day One JSON export")
        }
        // Beside the store and private (0700): the extracted journal and
        // the scratch store are the user's data.
        WorkFiles.removeLeftovers(of: store.url)
        let scratch = try WorkFiles.makeFolder(for: store.url, activity: "dayone")
        defer { WorkFiles.remove(scratch) }
        let scratchStore = try Store.create(
            at: scratch.appendingPathComponent("import.sqlite"), model: model)
        defer { try? scratchStore.close() }  // Scratch: its data is merged or dropped.
        try scratchStore.connection.setPragma("synchronous", "OFF")
        let writer = try DayOneEntryWriter(
            importer: self, zip: zip, context: Context(store: scratchStore, model: model))
        for (number, journal) in journals.enumerated() {
            summary.journals.append(journal.path)
            let extracted = scratch.appendingPathComponent("journal-\(number).json")
            try extract(journal, from: zip, to: extracted)
            try readJournal(at: extracted, name: "\(zipName)/\(journal.path)", writer: writer)
            try? FileManager.default.removeItem(at: extracted)  // Scratch.
        }
        try writer.reportUnreferenced()
        summary.tags = writer.tagCount
        if !options.isDryRun {
            summary.updated = try existingCount(of: writer.importedUUIDs)
            var merger = BundleMerger(
                source: scratchStore, destination: store, model: model, path: zipName,
                matchingKeys: Self.matchingKeys)
            if let name = Self.journalName(ofFile: journals[0].path) {
                var metadata = store.metadata
                metadata.otherKeys[Self.journalNameKey] = .text(name)
                merger.metadata = metadata
            }
            try merger.merge()
        }
        summary.seconds = Date().timeIntervalSince(start)
        return summary
    }

    /// Records `problem`; with the `abort` policy, throws it instead.
    package func report(_ problem: DayOneProblem, at position: SourcePosition) throws {
        if options.errorPolicy == .abort {
            throw ImportError(
                problem.kind == .invalidEntry ? .validation : .structure, at: position,
                problem.description + " (--on-error abort: nothing was imported)")
        }
        summary.problems.append(problem)
    }

    // MARK: - The JSON

    /// Copies a zip entry to a scratch file, streaming.
    private func extract(_ entry: ZipEntry, from zip: ZipReader, to file: URL) throws {
        guard FileManager.default.createFile(atPath: file.path, contents: nil),
            let handle = FileHandle(forWritingAtPath: file.path)
        else {
            throw ImportError(
                .unreadable, at: SourcePosition(file: file.path), "cannot create a scratch file")
        }
        defer { try? handle.close() }  // Written through; a scratch file.
        try zip.read(entry) { chunk in handle.write(Data(chunk)) }
    }

    /// Reads one journal's entries and checks its shape: an object with
    /// `metadata` (an object) and `entries` (an array of objects).
    private func readJournal(at file: URL, name: String, writer: DayOneEntryWriter) throws {
        let reader = try JSONRecordReader(
            path: file.path, lines: false, limits: options.jsonLimits,
            chunkSize: JSONRecordReader.defaultChunkSize, displayName: name)
        reader.keepsNonArrayMembers = true
        var lastFailure: Int64 = -1
        while true {
            let next: ImportRecord?
            do {
                next = try reader.nextRecord()
            } catch let error as ImportError
                where error.code == .structure && error.position.byteOffset != lastFailure
                && error.position.keyPath?.hasPrefix("entries[") == true
            {
                // An element of `entries` that is no entry (a string, say):
                // that element's problem; the reader goes on after it.
                lastFailure = error.position.byteOffset
                summary.entries += 1
                summary.skipped += 1
                try report(
                    DayOneProblem(
                        .invalidEntry, place: error.position.description, message: error.message),
                    at: error.position)
                continue
            }
            guard let record = next else { break }
            guard record.group == "entries" else { continue }
            summary.entries += 1
            try writer.write(try DayOneRecordDecoder.decode(record))
        }
        let top = SourcePosition(file: name, line: 1, column: 1)
        if let entries = reader.nonArrayMembers.first(where: { $0.key == "entries" }) {
            throw ImportError(
                .structure, at: entries.position,
                "expected an array of entries for \"entries\", found \(entries.node.summary)")
        }
        guard reader.arrayMembers.contains("entries") else {
            throw ImportError(
                .structure, at: top,
                "expected an object with \"metadata\" and an \"entries\" array (Day One's JSON "
                    + "export); there is no \"entries\" array")
        }
        if let metadata = reader.nonArrayMembers.first(where: { $0.key == "metadata" }) {
            guard case .dictionary = metadata.node.value else {
                throw ImportError(
                    .structure, at: metadata.position,
                    "expected an object for \"metadata\", found \(metadata.node.summary)")
            }
        } else {
            throw ImportError(
                .structure, at: top,
                reader.arrayMembers.contains("metadata")
                    ? "expected an object for \"metadata\", found an array"
                    : "expected an object with \"metadata\" and \"entries\" (Day One's JSON "
                        + "export); there is no \"metadata\"")
        }
    }

    /// How many of `uuids` the store has already.
    private func existingCount(of uuids: [String]) throws -> Int {
        let mapping = try StoreMapping(model: model, store: store)
        guard mapping.entities["DiaryEntry"]?.attributeColumns["uuid"] != nil else { return 0 }
        var query = RowQuery("DiaryEntry", [.key])
        query.entities = .table
        query.filters = [.equals(.attribute("uuid"))]
        query.inKeyOrder = false
        query.limit = 1
        let statement = try RowReader(store, tables: mapping).prepare(query)
        var count = 0
        for uuid in uuids {
            try statement.bind([.text(uuid)])
            if try statement.step() { count += 1 }
            statement.reset()
        }
        return count
    }
}

extension DayOneImporter {
    /// Whether the file at `path` looks like a Day One JSON export: a zip
    /// with a `<Journal>.json` at its top and no bundle manifest. Reads
    /// only the zip's table of contents; false for anything else.
    public static func looksLikeExport(at path: String) -> Bool {
        guard path.lowercased().hasSuffix(".zip"),
            let zip = try? ZipReader(contentsOf: URL(fileURLWithPath: path))  // A guess only.
        else { return false }
        guard zip.entry(named: "manifest.json") == nil else { return false }
        return zip.entries.contains {
            $0.kind == .file && !$0.path.contains("/") && $0.path.lowercased().hasSuffix(".json")
        }
    }
}
