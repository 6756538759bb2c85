import Foundation
import Strata

/// A scratch copy of the version-1 notes store that one side of a migrate
/// benchmark migrates, and the checks made on it after a run.
struct MigrationStore {
    /// Where the copy lives.
    let url: URL
    /// The cached version-1 store it is copied from.
    let original: URL
    /// The chain being migrated along.
    let chain: SchemaChain

    /// The files a store at `url` may have beside it: SQLite's, and the
    /// backups and work copies a migration makes.
    private var companions: [String] {
        let name = url.lastPathComponent
        let folder = url.deletingLastPathComponent().path
        return [url.path, url.path + "-wal", url.path + "-shm", url.path + "-journal"]
            + chain.versions.map { "\(folder)/\(name).strata-backup-v\($0.version)" }
    }

    /// Replaces the copy (and any leftovers of a run) by a fresh copy of the
    /// original, flushed to disk: otherwise the first commit's `fsync` would
    /// write the whole just-copied file back inside the timed run, a cost
    /// that grows with the file and belongs to the copy, not the migration.
    func reset() throws {
        for path in companions where FileManager.default.fileExists(atPath: path) {
            try FileManager.default.removeItem(atPath: path)
        }
        try FileManager.default.copyItem(at: original, to: url)
        let handle = try FileHandle(forUpdating: url)
        try handle.synchronize()
        try handle.close()
    }

    /// Checks that the store is at the chain's newest version, holds `rows`
    /// notes and has no backup left beside it.
    ///
    /// - Throws: ``BenchError`` (`verification`) naming what is wrong.
    func verify(rows: Int) throws {
        let store = try Store.open(at: url, mode: .readOnly)
        defer { try? store.close() }  // Read-only; nothing to lose on close.
        let version = try store.matchingVersion(in: chain).version
        guard version == chain.newest.version else {
            throw failure("is at version \(version), expected \(chain.newest.version)")
        }
        let count = try store.connection.scalar("SELECT count(*) FROM ZNOTE")?.int64Value
        guard count == Int64(rows) else {
            throw failure("holds \(count ?? -1) notes, expected \(rows)")
        }
        for path in companions.dropFirst(4) where FileManager.default.fileExists(atPath: path) {
            throw failure("left \(URL(fileURLWithPath: path).lastPathComponent) behind")
        }
    }

    /// Checks that this store and `other` hold the same notes (`columns`),
    /// the same `ZNOTE` table and index definitions and the same
    /// metadata, and that SQLite finds both sound.
    ///
    /// - Throws: ``BenchError`` (`verification`) saying what differs.
    func verifySame(as other: MigrationStore, columns: String) throws {
        let connection = try Connection(path: url.path, mode: .readOnly)
        defer { try? connection.close() }  // Read-only; nothing to lose on close.
        try connection.execute("ATTACH DATABASE ? AS other", [.text(other.url.path)])
        let checks = [
            ("rows of ZNOTE", "SELECT \(columns) FROM %@.ZNOTE"),
            ("definitions", "SELECT type, name, tbl_name, sql FROM %@.sqlite_master"),
            ("Z_PRIMARYKEY", "SELECT Z_ENT, Z_NAME, Z_SUPER, Z_MAX FROM %@.Z_PRIMARYKEY"),
        ]
        for (what, query) in checks {
            let (mine, theirs) = (
                query.replacingOccurrences(of: "%@", with: "main"),
                query.replacingOccurrences(of: "%@", with: "other")
            )
            let different = try connection.scalar(
                """
                SELECT (SELECT count(*) FROM (\(mine) EXCEPT \(theirs)))
                     + (SELECT count(*) FROM (\(theirs) EXCEPT \(mine)))
                """)?.int64Value
            guard different == 0 else {
                throw failure(
                    "and \(other.url.lastPathComponent) differ in \(different ?? -1) \(what)")
            }
        }
        // Property lists are compared decoded: Strata writes the keys of
        // the dictionary in no fixed order.
        let metadata = try [self, other].map { side in
            let store = try Store.open(at: side.url, mode: .readOnly)
            defer { try? store.close() }  // Read-only; nothing to lose on close.
            return store.metadata
        }
        guard metadata[0] == metadata[1] else {
            throw failure("and \(other.url.lastPathComponent) differ in Z_METADATA")
        }
        for side in [self, other] {
            let store = try Store.open(at: side.url, mode: .readOnly)
            defer { try? store.close() }  // Read-only; nothing to lose on close.
            let problems = try store.connection.integrityCheck()
            guard problems == ["ok"] else {
                throw side.failure("fails PRAGMA integrity_check: \(problems.prefix(3))")
            }
        }
    }

    /// The `UPDATE Z_METADATA …` that leaves a copy of `original` with the
    /// metadata Strata writes when it migrates it with `options`: found by
    /// migrating an empty store (at `scratch`) that carries the original's
    /// `Z_METADATA` row.
    ///
    /// - Throws: Store and migration errors, ``BenchError`` (`setup`) for an
    ///   unreadable row.
    static func migratedMetadataSQL(
        of original: URL, chain: SchemaChain, options: MigrationOptions, scratch: URL
    ) throws -> String {
        let source = try Store.open(at: original, mode: .readOnly)
        let row = source.metadata
        try source.close()
        for suffix in ["", "-wal", "-shm"] {
            try? FileManager.default.removeItem(atPath: scratch.path + suffix)  // Absent is fine.
        }
        guard let first = chain.versions.first else {
            throw BenchError(.setup, "the \(chain.name) chain has no versions")
        }
        let empty = try Store.create(at: scratch, model: first)
        try empty.connection.inTransaction(.immediate) { try empty.writeMetadata(row) }
        try empty.close()
        try Migrator(storeAt: scratch, chain: chain, options: options).run()
        let migrated = try Connection(path: scratch.path, mode: .readOnly)
        defer { try? migrated.close() }  // Read-only; nothing to lose on close.
        guard
            let uuid = try migrated.scalar(
                "SELECT quote(Z_UUID) FROM Z_METADATA WHERE Z_VERSION = 1")?.stringValue,
            let plist = try migrated.scalar(
                "SELECT quote(Z_PLIST) FROM Z_METADATA WHERE Z_VERSION = 1")?.stringValue
        else {
            throw BenchError(.setup, "\(scratch.lastPathComponent): no Z_METADATA row")
        }
        return "UPDATE Z_METADATA SET Z_UUID = \(uuid), Z_PLIST = \(plist) WHERE Z_VERSION = 1;"
    }

    private func failure(_ message: String) -> BenchError {
        BenchError(.verification, "\(url.lastPathComponent) \(message)")
    }
}
