import Foundation
import Strata

/// A peer's database for the import benchmarks: a fresh, empty SQLite file
/// (none at all before each run) into which a tool imports one plain table,
/// `contacts`.
struct PlainTable {
    /// Where the database lives.
    let url: URL
    /// The table the peer fills.
    let table = "contacts"

    /// Removes the database left by the previous run.
    func remove() throws { try ImportStore.removeDatabase(at: url) }

    /// Checks that the table holds `rows` rows and that SQLite finds the
    /// file sound.
    ///
    /// - Throws: ``BenchError`` (`verification`) naming what is wrong.
    func verify(rows: Int) throws {
        let connection = try Connection(path: url.path, mode: .readOnly)
        defer { try? connection.close() }  // Read-only; nothing to lose on close.
        let count = try connection.scalar("SELECT count(*) FROM \(table)")?.int64Value
        guard count == Int64(rows) else {
            throw BenchError(
                .verification,
                "\(url.lastPathComponent) holds \(count ?? -1) rows in \(table), expected \(rows)")
        }
        let problems = try connection.integrityCheck()
        guard problems == ["ok"] else {
            throw BenchError(
                .verification,
                "\(url.lastPathComponent) fails PRAGMA integrity_check: \(problems.prefix(3))")
        }
    }
}
