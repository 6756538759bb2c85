import Foundation
import StrataContext
import StrataCore
import StrataSchema
import StrataStore

import struct StrataContext.SortDescriptor

/// Writes a Diary store (version 4 or later) as a Day One JSON export: a
/// zip of `<Journal>.json` and the `photos/`, `audios/`, `videos/` and
/// `pdfs/` folders of `<md5>.<ext>` files, which Day One imports.
///
/// ```swift
/// let store = try Store.open(at: storeURL, mode: .readOnly)
/// let model = try store.resolveModel(schemas: nil).requiredModel()
/// let summary = try DayOneExporter(store: store, model: model)
///     .export(to: outputURL)
/// print(summary.entries, summary.mediaFiles)
/// ```
///
/// Every key an import kept in `dayOneExtra` is written back. An entry
/// written in Strata gets what Day One needs: a uuid and media identifiers
/// (32 upper-case hexadecimal digits, made from the object's key, so the
/// same store always gives the same ones), the MD5 of each medium's bytes,
/// `# title` as its first line (Markdown-escaped), and a `dayone-moment:` reference for each
/// medium its text does not show yet. The zip is deterministic: entries in
/// creation order, keys sorted, media files in name order with fixed times.
public final class DayOneExporter {
    /// The store read.
    public let store: Store
    /// Its model.
    public let model: Model
    /// The journal's name: the JSON file is `<journalName>.json`. By
    /// default the name of the journal a Day One import recorded in the
    /// store (`Dev Journal` for an export holding `Dev Journal.json`), or
    /// `Journal` for a store that never had one imported.
    public var journalName: String

    private var context: Context?

    /// Prepares the export of `store`, whose version `model` is.
    ///
    /// - Throws: ``ImportError`` when `model` lacks what Day One needs
    ///   (a Diary older than version 4).
    public init(store: Store, model: Model) throws {
        try DayOneImporter.checkModel(model, path: store.path)
        self.store = store
        self.model = model
        self.journalName = DayOneImporter.recordedJournalName(in: store.metadata) ?? "Journal"
    }

    /// Writes the export to `url`, atomically.
    ///
    /// - Parameter replacing: Whether an existing file may be replaced.
    /// - Returns: What was written.
    /// - Throws: ``ArchiveError`` (an existing file, a write failure),
    ///   store errors.
    @discardableResult
    public func export(to url: URL, replacing: Bool = false) throws -> DayOneExportSummary {
        var summary = DayOneExportSummary()
        let context = try Context(store: store, model: model, access: .readOnlyBestEffort)
        self.context = context
        defer { self.context = nil }
        var files: [(path: String, medium: ObjectID)] = []
        try ZipWriter.write(to: url, replacing: replacing) { zip in
            try zip.add(path: "\(journalName).json", compression: .deflated) { sink in
                try sink.write("{\n  \"entries\" : [\n")
                var request = FetchRequest(entity: "DiaryEntry")
                request.sortDescriptors = [SortDescriptor("creationTime")]
                var first = true
                try context.forEach(request, batchSize: 200) { entry in
                    let written = try self.json(of: entry)
                    if written.generatedUUID { summary.generatedUUIDs += 1 }
                    files += written.files
                    try sink.write(
                        (first ? "" : ",\n") + "    " + DayOneJSON.text(written.json, indent: 4))
                    first = false
                    summary.entries += 1
                }
                try sink.write(
                    (first ? "" : "\n")
                        + "  ],\n  \"metadata\" : {\n    \"version\" : \"1.0\"\n  }\n}\n"
                )
            }
            files.sort { Array($0.path.utf8).lexicographicallyPrecedes(Array($1.path.utf8)) }
            var previous: String?
            for file in files where file.path != previous {
                previous = file.path
                let data = try context.object(with: file.medium).data("data") ?? Data()
                try zip.add(path: file.path, bytes: data, compression: .stored)
                // One medium's bytes in memory at a time.
                context.registry.purge()
                summary.mediaFiles += 1
                summary.mediaBytes += Int64(data.count)
            }
        }
        summary.zipBytes = FileSystem.size(of: url.path)
        return summary
    }

    // MARK: - One entry

    /// An entry's JSON and the media files it needs.
    struct WrittenEntry {
        var json: RecordValue
        var files: [(path: String, medium: ObjectID)]
        var generatedUUID: Bool
    }

    private func json(of entry: ManagedObject) throws -> WrittenEntry {
        var members = Self.members(ofExtra: try entry.string("dayOneExtra"))
        var nested: [String: [String: RecordValue]] = [:]
        for key in ["location", "weather"] {
            if case .dictionary(let inner)? = members.removeValue(forKey: key) {
                nested[key] = Dictionary(inner.map { ($0.key, $0.value) }) { a, _ in a }
            }
        }
        var generated = false
        for field in DayOneField.entry {
            if let value = try Self.json(entry, field) { members[field.key] = value }
        }
        for (key, fields) in [("location", DayOneField.location), ("weather", DayOneField.weather)]
        {
            var inner = nested[key] ?? [:]
            for field in fields {
                if let value = try Self.json(entry, field) { inner[field.key] = value }
            }
            if !inner.isEmpty { members[key] = Self.object(inner) }
        }
        if members["uuid"] == nil {
            members["uuid"] = .text(Self.identifier("DiaryEntry", entry.objectID))
            generated = true
        }
        let tags = try entry.objects(forKey: "tags").compactMap { try $0.string("name") }.sorted {
            Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8))
        }
        // Only an entry with tags gets the key, as Day One writes it (an
        // import keeps an explicit empty list in `dayOneExtra`).
        if !tags.isEmpty { members["tags"] = .array(values: tags.map { .text($0) }) }

        var text = DayOneText.text(
            title: try entry.string("title") ?? "", subtitle: try entry.string("subtitle"),
            body: try entry.string("body"))
        var files: [(path: String, medium: ObjectID)] = []
        var arrays: [DayOneMediaKind: [RecordValue]] = [:]
        let media = try entry.objects(forKey: "media").sorted {
            let left = (try? $0.integer("orderInEntry")) ?? 0
            let right = (try? $1.integer("orderInEntry")) ?? 0
            return left != right
                ? left < right : $0.objectID.primaryKey ?? 0 < $1.objectID.primaryKey ?? 0
        }
        for medium in media {
            guard let type = try medium.string("type"), let kind = DayOneMediaKind(mediumType: type)
            else { continue }
            let written = try json(ofMedium: medium, kind: kind)
            arrays[kind, default: []].append(written.json)
            if let path = written.path { files.append((path, medium.objectID)) }
            // Only a medium written in Strata (no identifier yet) gets a
            // reference: an imported text stays exactly as Day One wrote it.
            if written.isNew, !text.contains(written.identifier) {
                text +=
                    (text.isEmpty ? "" : "\n\n")
                    + DayOneText.moment(kind, identifier: written.identifier)
            }
        }
        for (kind, values) in arrays { members[kind.entryKey] = .array(values: values) }
        members["text"] = .text(text)
        return WrittenEntry(json: Self.object(members), files: files, generatedUUID: generated)
    }

    /// A medium's JSON, its file in the zip (nil without bytes) and its
    /// identifier.
    private func json(ofMedium medium: ManagedObject, kind: DayOneMediaKind) throws -> (
        json: RecordValue, path: String?, identifier: String, isNew: Bool
    ) {
        var members = Self.members(ofExtra: try medium.string("dayOneExtra"))
        for field in DayOneField.medium {
            if let value = try Self.json(medium, field) { members[field.key] = value }
        }
        let stored = try medium.string("identifier")
        let identifier = stored ?? Self.identifier("Medium", medium.objectID)
        members["identifier"] = .text(identifier)
        let data = try medium.data("data")
        var format = try medium.string("format")
        if format == nil, let data {
            let sniffed = MediaType.sniff(data.prefix(64)).fileExtension
            format = kind == .audio ? "aac" : (sniffed == "jpg" ? "jpeg" : sniffed)
        }
        if let format { members[kind.formatKey] = .text(format) }
        var path: String?
        if let data {
            let md5 = try medium.string("md5") ?? MD5.hex(MD5.hash(data))
            members["md5"] = .text(md5)
            if stored == nil { members["fileSize"] = .integer(Int64(data.count)) }
            let ext =
                kind.fileExtension(format: format)
                ?? MediaType.sniff(data.prefix(64)).fileExtension
            path = "\(kind.folder)/\(md5).\(ext)"
        }
        return (Self.object(members), path, identifier, stored == nil)
    }

    // MARK: - Values

    /// The JSON of `field`'s attribute on `object`, nil when unset.
    private static func json(_ object: ManagedObject, _ field: DayOneField) throws -> RecordValue? {
        guard let value = try object.value(forKey: field.attribute) else { return nil }
        switch value {
        case .string(let text): return .text(text)
        case .boolean(let flag): return .boolean(flag)
        case .integer(let number):
            return field.kind == .boolean ? .boolean(number != 0) : .integer(number)
        case .real(let number): return DayOneJSON.number(number)
        case .date(let seconds):
            return ISO8601Date.string(from: seconds.rounded(.down)).map { .text($0) }
        case .data, .uuid: return nil
        }
    }

    /// The members of a `dayOneExtra` text (a JSON object), by key.
    private static func members(ofExtra text: String?) -> [String: RecordValue] {
        guard let text, let node = try? JSONReader.parse(text),  // Kept by Strata's import.
            case .dictionary(let members) = node.value
        else { return [:] }
        return Dictionary(members.map { ($0.key, $0.value) }) { a, _ in a }
    }

    private static func object(_ members: [String: RecordValue]) -> RecordValue {
        .dictionary(entries: members)
    }

    /// A Day One identifier (32 upper-case hexadecimal digits) made from an
    /// object's key: the same object always gets the same one.
    static func identifier(_ entity: String, _ id: ObjectID) -> String {
        let digest = SHA256.hash(Array("strata-dayone:\(entity):\(id.primaryKey ?? 0)".utf8))
        return SHA256.hex(Array(digest.prefix(16))).uppercased()
    }
}
