import Foundation

/// A set of named entries with a few integers each, kept in a scratch
/// SQLite file and read back in name order: a sorted, deduplicated list
/// that may be too large for memory (an archive's media, by content hash).
///
/// Unjournaled and unsynced: the file is scratch, removed with its folder.
/// The first entry of a name is kept; later ones are ignored.
///
/// ```swift
/// let index = try ScratchIndex(at: folder.appendingPathComponent("media.sqlite"), fields: 2)
/// try index.add("b.png", [10, 1])
/// try index.add("a.png", [20, 2])
/// try index.forEach { name, fields in print(name, fields[0]) }  // a.png first
/// ```
package final class ScratchIndex {
    private let connection: Connection
    /// Optional only so that `deinit` can finalize it before closing: an
    /// open statement makes `close()` fail (busy).
    private var insert: Statement?
    /// The integers each entry holds.
    package let fields: Int

    /// A new, empty index in a file at `url` (which must not exist), of
    /// entries holding `fields` integers.
    ///
    /// - Throws: ``SQLiteError`` when the file cannot be made.
    package init(at url: URL, fields: Int) throws {
        self.fields = fields
        connection = try Connection(path: url.path)
        try connection.setPragma("journal_mode", "OFF")
        try connection.setPragma("synchronous", "OFF")
        let names = (0..<fields).map { "f\($0)" }
        try connection.execute(
            "CREATE TABLE entries (name TEXT PRIMARY KEY"
                + names.map { ", \($0) INTEGER" }.joined() + ")")
        insert = try connection.prepare(
            "INSERT OR IGNORE INTO entries VALUES (?"
                + String(repeating: ", ?", count: fields) + ")")
        try connection.beginTransaction(.immediate)
    }

    deinit {
        insert = nil
        try? connection.close()  // Scratch: removed with its folder.
    }

    /// Adds `name` with `values` (``fields`` of them), unless it is there.
    ///
    /// - Throws: ``SQLiteError``; ``ResultCode/range`` for a wrong number
    ///   of values.
    package func add(_ name: String, _ values: [Int64]) throws {
        try insert?.execute([.text(name)] + values.map { .integer($0) })
    }

    /// Calls `body` with every entry, in byte order of the names.
    ///
    /// - Throws: ``SQLiteError``; what `body` throws.
    package func forEach(_ body: (_ name: String, _ values: [Int64]) throws -> Void) throws {
        let entries = try connection.prepare(
            "SELECT * FROM entries ORDER BY name")
        try entries.forEachRow { row in
            try body(row.text(at: 0) ?? "", (0..<fields).map { row.int64(at: Int32($0 + 1)) })
        }
    }
}
