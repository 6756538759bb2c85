import Foundation
import Strata

/// The generated diary the bundle benchmarks archive: `diary.txt` imported
/// with `strata import` (entries and tags), then one `Medium` per file of
/// `media/` (its bytes, `image` or `sound` by extension) attached to the
/// first entry `diary-media.csv` gives it. Built once, untimed, and cached
/// beside the corpus.
enum DiaryBundleStore {
    /// The store of `corpus`, built when missing.
    ///
    /// - Throws: ``BenchError`` (`setup`) when building fails.
    static func prepare(corpus: Corpus, strata: String, schemas: URL) throws -> URL {
        let url = corpus.directory.appendingPathComponent("Diary.sqlite")
        if FileManager.default.fileExists(atPath: url.path) { return url }
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
        let connection = try Connection(path: partial.path)
        try insertMedia(
            corpus: corpus, owner: owner, connection: connection, table: medium.tableName,
            number: medium.number, columns: (type, data, entry))
        try connection.close()
        try FileManager.default.moveItem(at: partial, to: url)
        return url
    }

    /// One `Medium` row per media file, in one transaction.
    private static func insertMedia(
        corpus: Corpus, owner: [String: Int], connection: Connection, table: String, number: Int,
        columns: (type: String, data: String, entry: String)
    ) throws {
        let (type, data, entry) = columns
        try connection.execute("BEGIN IMMEDIATE TRANSACTION")
        let insert = try connection.prepare(
            "INSERT INTO \(table) (Z_PK, Z_ENT, Z_OPT, \(type), \(data), \(entry)) "
                + "VALUES (?, ?, 1, ?, ?, ?)")
        let files = try FileManager.default.contentsOfDirectory(atPath: corpus.mediaFolder.path)
            .sorted()
        for (index, file) in files.enumerated() {
            let bytes = try Data(contentsOf: corpus.mediaFolder.appendingPathComponent(file))
            let entryKey = Int64((owner[file] ?? index % max(corpus.entries, 1)) + 1)
            try insert.execute([
                .integer(Int64(index + 1)), .integer(Int64(number)),
                .text(file.hasSuffix(".wav") ? "sound" : "image"), .blob(Data([1]) + bytes),
                .integer(entryKey),
            ])
        }
        try connection.execute(
            "UPDATE Z_PRIMARYKEY SET Z_MAX = ? WHERE Z_ENT = ?",
            [.integer(Int64(files.count)), .integer(Int64(number))])
        try connection.execute("COMMIT TRANSACTION")
    }
}
