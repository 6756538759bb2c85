import Foundation
import Strata

/// The generated diary the bundle benchmarks archive: `diary.txt` imported
/// with `strata import` (entries and tags), then one `Medium` per file of
/// `media/` (its bytes, `image` or `sound` by extension, its place among its
/// entry's media) attached to the first entry `diary-media.csv` gives it.
/// Built once, untimed, and cached beside the corpus; a cached store that
/// lacks a required value of the newest schema (one built before the schema
/// gained it) is built again, and the bundle made from it removed.
enum DiaryBundleStore {
    /// The store of `corpus`, built when missing or out of date.
    ///
    /// - Throws: ``BenchError`` (`setup`) when building fails, or the store
    ///   built still lacks a required value.
    static func prepare(corpus: Corpus, strata: String, schemas: URL) throws -> URL {
        let url = corpus.directory.appendingPathComponent("Diary.sqlite")
        if FileManager.default.fileExists(atPath: url.path) {
            guard let problem = missingRequiredValue(in: url, schemas: schemas) else { return url }
            log("rebuilding \(url.lastPathComponent): \(problem)")
            try ImportStore.removeDatabase(at: url)
            let bundle = URL(fileURLWithPath: corpus.directory.path + ".zip")
            try? FileManager.default.removeItem(at: bundle)  // Made from the old store.
        }
        let partial = corpus.directory.appendingPathComponent("Diary.partial.sqlite")
        try ImportStore.removeDatabase(at: partial)
        log("building \(url.lastPathComponent) for the bundle benchmarks (untimed)")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: strata)
        process.arguments = [
            "import", partial.path, corpus.diaryText.path, "--format", "txt-blocks", "--entity",
            "DiaryEntry", "--schemas", schemas.path,
        ]
        process.standardOutput = FileHandle.standardError
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw BenchError(.setup, "strata import of \(corpus.diaryText.path) failed")
        }
        // The first entry each media file is attached to.
        var owner: [String: Int] = [:]
        let links = try String(contentsOf: corpus.diaryMedia, encoding: .utf8)
        for line in links.split(whereSeparator: { $0 == "\n" || $0 == "\r" }).dropFirst() {
            let parts = line.split(separator: ",")
            guard parts.count == 2, let entry = Int(parts[0]) else { continue }
            if owner[String(parts[1])] == nil { owner[String(parts[1])] = entry }
        }
        // Plain SQL, as Core Data lays the rows out: the data column holds
        // the external-storage marker 0x01 and the bytes.
        let layout = try ImportStore(url: partial, schemas: schemas)
        let medium = try layout.entity("Medium")
        let type = try layout.column("type", of: "Medium")
        let data = try layout.column("data", of: "Medium")
        let entry = try layout.foreignKey("diaryEntry", of: "Medium")
        let order = try layout.column("orderInEntry", of: "Medium")
        let connection = try Connection(path: partial.path)
        try insertMedia(
            corpus: corpus, owner: owner, connection: connection, table: medium.tableName,
            number: medium.number, columns: (type, data, entry, order))
        try connection.close()
        if let problem = missingRequiredValue(in: partial, schemas: schemas) {
            throw BenchError(.setup, "\(url.lastPathComponent) as built: \(problem)")
        }
        try FileManager.default.moveItem(at: partial, to: url)
        return url
    }

    /// The first required attribute or to-one of the newest schema that some
    /// row of the store at `url` leaves NULL (`unarchive` refuses such a
    /// bundle), or why the store cannot be read by that schema; nil when
    /// every required value is there.
    static func missingRequiredValue(in url: URL, schemas: URL) -> String? {
        do {
            let store = try ImportStore(url: url, schemas: schemas)
            let connection = try Connection(path: url.path)
            defer { try? connection.close() }  // Only read.
            for layout in store.layout.entities where !layout.isAbstract {
                guard let entity = store.model.entity(named: layout.name) else { continue }
                let attributes = entity.attributes.filter { !$0.isOptional && !$0.isTransient }
                    .compactMap { attribute in
                        layout.attributeColumns[attribute.name].map { (attribute.name, $0) }
                    }
                let toOnes = entity.relationships.filter {
                    !$0.isOptional && !$0.isToMany && !$0.isTransient
                }.compactMap { relationship in
                    layout.toOneColumns[relationship.name].map {
                        (relationship.name, $0.foreignKey)
                    }
                }
                for (name, column) in attributes + toOnes {
                    let nulls = try connection.scalar(
                        "SELECT count(*) FROM \(layout.tableName) "
                            + "WHERE Z_ENT = \(layout.number) AND \(column) IS NULL")?.int64Value
                    if let nulls, nulls > 0 {
                        return "\(nulls) \(layout.name) rows have no \(name), which is required"
                    }
                }
            }
            return nil
        } catch {
            return "it does not read as the newest \(schemas.lastPathComponent) schema (\(error))"
        }
    }

    /// One `Medium` row per media file, in one transaction.
    private static func insertMedia(
        corpus: Corpus, owner: [String: Int], connection: Connection, table: String, number: Int,
        columns: (type: String, data: String, entry: String, order: String)
    ) throws {
        let (type, data, entry, order) = columns
        try connection.execute("BEGIN IMMEDIATE TRANSACTION")
        let insert = try connection.prepare(
            "INSERT INTO \(table) (Z_PK, Z_ENT, Z_OPT, \(type), \(data), \(entry), \(order)) "
                + "VALUES (?, ?, 1, ?, ?, ?, ?)")
        let files = try FileManager.default.contentsOfDirectory(atPath: corpus.mediaFolder.path)
            .sorted()
        var mediaOfEntry: [Int64: Int64] = [:]
        for (index, file) in files.enumerated() {
            let bytes = try Data(contentsOf: corpus.mediaFolder.appendingPathComponent(file))
            let entryKey = Int64((owner[file] ?? index % max(corpus.entries, 1)) + 1)
            let place = mediaOfEntry[entryKey, default: 0]
            mediaOfEntry[entryKey] = place + 1
            try insert.execute([
                .integer(Int64(index + 1)), .integer(Int64(number)),
                .text(file.hasSuffix(".wav") ? "sound" : "image"), .blob(Data([1]) + bytes),
                .integer(entryKey), .integer(place),
            ])
        }
        try connection.execute(
            "UPDATE Z_PRIMARYKEY SET Z_MAX = ? WHERE Z_ENT = ?",
            [.integer(Int64(files.count)), .integer(Int64(number))])
        try connection.execute("COMMIT TRANSACTION")
    }
}
