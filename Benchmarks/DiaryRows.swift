import Foundation
import Strata

/// The rows a Strata import of `diary.txt` writes, as CSV files the
/// `sqlite3` shell loads with `.import`: the floor of what SQLite itself
/// takes to store the diary (the same rows, tables and indexes, with no
/// text to parse beyond CSV).
///
/// Made once per corpus (untimed) by importing `diary.txt` with `strata`
/// into a scratch store and writing each table out with the shell's
/// `.mode csv`; kept beside the corpus in `diary-rows/`. The shell's side
/// then creates the store's tables and indexes from the scratch store's own
/// `CREATE` statements and imports the files. NULLs come back as empty
/// text, a few bytes per row more than Strata stores.
struct DiaryRows {
    /// The tables loaded, in order.
    let tables: [String]
    /// The folder of the files.
    let folder: URL
    /// The `CREATE TABLE` and `CREATE INDEX` statements, tables first.
    let statements: [String]

    /// The CSV file of `table`.
    func file(of table: String) -> URL {
        folder.appendingPathComponent("\(table).csv")
    }

    /// The shell arguments that load the rows into a new database at `path`.
    func shellArguments(database path: String) -> [String] {
        ["-bail", path] + statements
            + tables.map { ".import --csv \"\(file(of: $0).path)\" \($0)" }
    }

    /// Makes the files of `tables` for `diary` (once; later calls reuse them).
    ///
    /// - Throws: ``BenchError`` when the import or the shell fails, or the
    ///   store's layout is not the expected one.
    static func prepare(
        diary: URL, tables: [String], schemas: URL, strata: String, sqlite3: String
    ) throws -> DiaryRows {
        let folder = diary.deletingLastPathComponent().appendingPathComponent(
            "diary-rows", isDirectory: true)
        let scratch = folder.appendingPathComponent("rows.sqlite")
        let done = folder.appendingPathComponent("done")
        if !FileManager.default.fileExists(atPath: done.path) {
            try? FileManager.default.removeItem(at: folder)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            log("diary rows: importing \(diary.lastPathComponent) once to derive the shell's input")
            _ = try ChildProcess.run(
                ChildCommand(
                    executable: strata,
                    arguments: [
                        "import", scratch.path, diary.path, "--format", "txt-blocks",
                        "--entity", "DiaryEntry", "--schemas", schemas.path,
                    ]))
            for table in tables {
                _ = try ChildProcess.run(
                    ChildCommand(
                        executable: "/bin/sh",
                        arguments: [
                            "-c", "\"$1\" -csv \"$2\" \"SELECT * FROM $3\" > \"$4\"", "sh",
                            sqlite3, scratch.path, table,
                            folder.appendingPathComponent("\(table).csv").path,
                        ]))
            }
            _ = FileManager.default.createFile(atPath: done.path, contents: Data())
        }
        let connection = try Connection(path: scratch.path, mode: .readOnly)
        defer { try? connection.close() }  // Read-only; nothing to lose on close.
        var tableStatements: [String] = []
        var indexStatements: [String] = []
        let statement = try connection.prepare(
            "SELECT type, sql FROM sqlite_master WHERE tbl_name IN ("
                + tables.map { "'\($0)'" }.joined(separator: ", ")
                + ") AND sql IS NOT NULL ORDER BY rowid")
        try statement.forEachRow { row in
            guard let type = row.text(at: 0), let sql = row.text(at: 1) else { return }
            if type == "table" { tableStatements.append(sql) } else { indexStatements.append(sql) }
        }
        guard tableStatements.count == tables.count else {
            throw BenchError(
                .setup, "the diary store has \(tableStatements.count) of the tables \(tables)")
        }
        return DiaryRows(
            tables: tables, folder: folder, statements: tableStatements + indexStatements)
    }
}
