import StrataCore

/// The indexes of some tables, dropped while a load fills the tables and
/// made again, from the same SQL, once they are full.
///
/// A join table's second index (`Z_1TAGS_Z_3TAGS_INDEX` on the member
/// column, then the owner) receives the links of a load in no useful order,
/// and inserting into it link by link took two thirds of the time of
/// inserting the links; building it afterwards sorts once. Only for a store
/// this process has just created and holds in one transaction: the SQL
/// executed again is what that store's `sqlite_master` says, so the store
/// ends with the same indexes, byte for byte in its schema.
package struct DeferredIndexes {
    /// The dropped indexes' `CREATE INDEX` statements.
    private(set) var statements: [String] = []
    private let connection: Connection

    /// Drops every index of `tables` but those SQLite makes for a primary
    /// key or unique constraint (they have no SQL of their own).
    package init(tables: [String], connection: Connection) throws {
        self.connection = connection
        let indexes = try connection.prepare(
            "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = ?1 "
                + "AND sql IS NOT NULL ORDER BY name")
        var names: [String] = []
        for table in tables {
            try indexes.bind(.text(table), at: 1)
            while try indexes.step() {
                guard let name = indexes.text(at: 0), let sql = indexes.text(at: 1) else {
                    continue
                }
                names.append(name)
                statements.append(sql)
            }
            indexes.reset()
        }
        for name in names {
            try connection.execute("DROP INDEX \(SQLiteIdentifier.quoted(name))")
        }
    }

    /// Creates the dropped indexes again; later calls do nothing.
    package mutating func restore() throws {
        guard !statements.isEmpty else { return }
        // SQLite sorts an index's keys in runs as large as the page cache,
        // then merges the runs. Runs of a megabyte sort within the CPU's
        // caches: the Diary's join index (196,148 links, 26 tags) took
        // 63 ms so, against 70–180 ms in one run of 8 MiB, and less memory.
        let cache = try connection.pragma("cache_size")?.int64Value
        try connection.setPragma("cache_size", "-1024")
        for statement in statements {
            try connection.execute(statement)
        }
        statements = []
        if let cache { try connection.setPragma("cache_size", String(cache)) }
    }
}
