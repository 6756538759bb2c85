import Foundation
import StrataContext
import StrataCore

/// Writes decoded Day One entries, one save each, into the scratch store
/// of a ``DayOneImporter``, with their tags and their media's bytes read
/// from the zip; keeps track of which media files were used.
final class DayOneEntryWriter {
    private unowned let importer: DayOneImporter
    private let zip: ZipReader
    private let context: Context
    /// The media files of the zip by `<folder>/<md5>` (lower-case).
    private var mediaFiles: [String: ZipEntry] = [:]
    /// Files that are neither a journal nor in a media folder.
    private var strayFiles: [ZipEntry] = []
    /// The paths of the files some entry used.
    private var used: Set<String> = []
    /// Tags made so far, by name.
    private var tags: [String: ManagedObject] = [:]
    /// The uuids written, in order.
    private(set) var importedUUIDs: [String] = []
    private var seenUUIDs: Set<String> = []

    /// The number of distinct tags written.
    var tagCount: Int { tags.count }

    init(importer: DayOneImporter, zip: ZipReader, context: Context) throws {
        self.importer = importer
        self.zip = zip
        self.context = context
        for entry in zip.entries where entry.kind == .file {
            let parts = entry.path.split(separator: "/", omittingEmptySubsequences: false)
            if parts.count == 1, entry.path.lowercased().hasSuffix(".json") { continue }
            guard parts.count == 2,
                let kind = DayOneMediaKind.allCases.first(where: { $0.folder == parts[0] })
            else {
                strayFiles.append(entry)
                continue
            }
            let stem = parts[1].prefix { $0 != "." }.lowercased()
            let key = "\(kind.folder)/\(stem)"
            if mediaFiles[key] == nil {
                mediaFiles[key] = entry
            } else {
                strayFiles.append(entry)  // A second file of one md5: no entry can name it.
            }
        }
    }

    // MARK: - Entries

    /// Writes one entry, or reports why it cannot be written.
    package func write(_ record: DayOneRecord) throws {
        let place = record.position.description
        func invalid(_ message: String) throws {
            importer.summary.skipped += 1
            try importer.report(
                DayOneProblem(.invalidEntry, uuid: record.uuid, place: place, message: message),
                at: record.position)
        }
        if let invalidity = record.invalidity { return try invalid(invalidity) }
        guard let uuid = record.uuid else { return try invalid("the entry has no uuid") }
        guard seenUUIDs.insert(uuid).inserted else {
            return try invalid("the uuid is used by an earlier entry of the export")
        }
        if let medium = record.media.first(where: { $0.identifier == nil }) {
            return try invalid(
                "a medium has no identifier (at \(medium.position.keyPath ?? "?"))")
        }
        var newTags: [String] = []
        var mediaBytes: Int64 = 0
        var mediaCount = 0
        do {
            let entry = try context.insert("DiaryEntry")
            for (name, value) in record.attributes.sorted(by: { $0.key < $1.key }) {
                try entry.setValue(value, forKey: name)
            }
            let body = record.attributes["body"].flatMap { value -> String? in
                if case .string(let text) = value { return text }
                return nil
            }
            try entry.set("title", DayOneText.title(of: body))
            try entry.set("wordCount", DayOneText.wordCount(of: body))
            try entry.set("dayOneExtra", record.extra.map { DayOneJSON.text($0) })
            var named: Set<String> = []
            for name in record.tags where named.insert(name).inserted {
                let tag: ManagedObject
                if let known = tags[name] {
                    tag = known
                } else {
                    tag = try context.insert("Tag")
                    try tag.set("name", name)
                    tags[name] = tag
                    newTags.append(name)
                }
                try entry.add(tag, to: "tags")
            }
            for medium in record.media {
                guard let bytes = try write(medium, of: entry, uuid: uuid) else { continue }
                mediaBytes += bytes
                mediaCount += 1
            }
            try context.save()
        } catch let error as ValidationError {
            context.rollback()
            for name in newTags { tags[name] = nil }
            return try invalid("\(error)")
        } catch let error as ContextError {
            context.rollback()
            for name in newTags { tags[name] = nil }
            return try invalid(error.message)
        }
        importedUUIDs.append(uuid)
        importer.summary.imported += 1
        importer.summary.media += mediaCount
        importer.summary.mediaBytes += mediaBytes
    }

    /// Adds one medium to `entry`, with its bytes when the zip has them;
    /// a medium whose file is not the one its MD5 names is left out.
    ///
    /// - Returns: The number of bytes read; nil for a medium left out.
    private func write(_ medium: DayOneMediumRecord, of entry: ManagedObject, uuid: String)
        throws -> Int64?
    {
        func insert() throws -> ManagedObject {
            let object = try context.insert("Medium")
            for (name, value) in medium.attributes.sorted(by: { $0.key < $1.key }) {
                try object.setValue(value, forKey: name)
            }
            try object.set("dayOneExtra", medium.extra.map { DayOneJSON.text($0) })
            try object.setObject(entry, forKey: "diaryEntry")
            return object
        }
        let folder = medium.kind.folder
        let expected =
            "\(folder)/\(medium.md5 ?? "<md5>").\(medium.kind.fileExtension(format: medium.format) ?? "<ext>")"
        guard let md5 = medium.md5?.lowercased(), let file = mediaFiles["\(folder)/\(md5)"] else {
            try importer.report(
                DayOneProblem(
                    .missingMedium, uuid: uuid, file: expected,
                    place: medium.position.description,
                    message:
                        "the \(medium.kind.rawValue) \(medium.identifier ?? "") is not in the zip"
                        + (medium.md5 == nil ? " (it has no md5)" : "")),
                at: medium.position)
            _ = try insert()
            return 0
        }
        used.insert(file.path)
        let data = try zip.data(of: file, limit: Int(clamping: zip.limits.maxEntrySize))
        let actual = MD5.hex(MD5.hash(data))
        if actual != md5 {
            // Not the bytes the entry names: the medium is refused, the
            // entry kept.
            try importer.report(
                DayOneProblem(
                    .mediumChecksumMismatch, uuid: uuid, file: file.path,
                    place: medium.position.description,
                    message:
                        "the file's MD5 is \(actual), not the \(md5) the entry gives; "
                        + "the \(medium.kind.rawValue) was left out"),
                at: medium.position)
            return nil
        }
        try insert().setValue(.data(data), forKey: "data")
        return Int64(data.count)
    }

    // MARK: - Files no entry used

    /// Reports every file of the zip that no entry used.
    func reportUnreferenced() throws {
        let unused = (mediaFiles.values.filter { !used.contains($0.path) } + strayFiles)
            .sorted { $0.index < $1.index }
        for file in unused {
            try importer.report(
                DayOneProblem(
                    .unreferencedMedium, file: file.path,
                    message: "no entry lists this file; it was not imported"),
                at: SourcePosition(file: "\(importer.zipName)/\(file.path)"))
        }
    }
}
