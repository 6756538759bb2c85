import CSQLite
import Foundation

extension Connection {
    /// A column of a table, as `PRAGMA table_info` describes it.
    public struct ColumnInfo: Hashable, Sendable {
        /// The column's name.
        public var name: String
        /// The declared type (`INTEGER`, `VARCHAR`, … or empty), as written.
        public var declaredType: String
        /// Whether the column is `NOT NULL`.
        public var isNotNull: Bool
        /// The column's position in the primary key (1-based), 0 if not in it.
        public var primaryKeyIndex: Int

        /// Creates a column description.
        ///
        /// - Parameters:
        ///   - name: The column's name.
        ///   - declaredType: The declared type, as written.
        ///   - isNotNull: Whether the column is `NOT NULL`.
        ///   - primaryKeyIndex: 1-based position in the primary key, or 0.
        public init(name: String, declaredType: String, isNotNull: Bool, primaryKeyIndex: Int) {
            self.name = name
            self.declaredType = declaredType
            self.isNotNull = isNotNull
            self.primaryKeyIndex = primaryKeyIndex
        }
    }

    /// Whether the main database has a table called `name` (ignoring case,
    /// as SQLite does).
    ///
    /// - Parameter name: The table name, unquoted; it is bound, not spliced.
    /// - Returns: `true` when the table exists.
    /// - Throws: ``SQLiteError``.
    public func tableExists(_ name: String) throws -> Bool {
        let sql =
            "SELECT 1 FROM main.sqlite_master WHERE type = 'table' AND name = ? COLLATE NOCASE"
        return try scalar(sql, [.text(name)]) != nil
    }

    /// The names of the main database's tables, as they were created
    /// (SQLite's own `sqlite_…` tables included).
    ///
    /// - Returns: The names, in no particular order.
    /// - Throws: ``SQLiteError``.
    public func tableNames() throws -> [String] {
        var names: [String] = []
        try prepare("SELECT name FROM main.sqlite_master WHERE type = 'table'").forEachRow {
            if let name = $0.text(at: 0) { names.append(name) }
        }
        return names
    }

    /// Drops every trigger and view of the main database, leaving its tables
    /// and indexes: a database taken as input keeps no code of its own that
    /// would run on later writes. Run it inside a transaction to drop all or
    /// none.
    ///
    /// - Throws: ``SQLiteError``.
    public func dropTriggersAndViews() throws {
        var drops: [String] = []
        try prepare(
            "SELECT type, name FROM main.sqlite_master WHERE type IN ('trigger', 'view')"
        ).forEachRow { row in
            let type = row.text(at: 0) == "view" ? "VIEW" : "TRIGGER"
            drops.append(
                "DROP \(type) IF EXISTS main.\(SQLiteIdentifier.quoted(row.text(at: 1) ?? ""))")
        }
        for drop in drops { try execute(drop) }
    }

    /// The columns of a table in the main database, in declaration order.
    ///
    /// Uses the `pragma_table_info` table-valued function so the table name
    /// is bound as a parameter rather than spliced into SQL.
    ///
    /// - Parameter table: The table name, unquoted.
    /// - Returns: The columns; empty when there is no such table.
    /// - Throws: ``SQLiteError``.
    public func columns(ofTable table: String) throws -> [ColumnInfo] {
        let statement = try prepare(
            #"SELECT name, type, "notnull", pk FROM pragma_table_info(?, 'main') ORDER BY cid"#)
        try statement.bind([.text(table)])
        var columns: [ColumnInfo] = []
        try statement.forEachRow { row in
            columns.append(
                ColumnInfo(
                    name: row.text(at: 0) ?? "", declaredType: row.text(at: 1) ?? "",
                    isNotNull: row.int64(at: 2) != 0, primaryKeyIndex: Int(row.int64(at: 3))))
        }
        return columns
    }

    /// The column sets of a main-database table's unique indexes (its
    /// `UNIQUE` constraints and unique `CREATE INDEX`es), one set each.
    ///
    /// - Parameter table: The table name, unquoted; it is bound, not spliced.
    /// - Returns: The sets; empty when there is no such table.
    /// - Throws: ``SQLiteError``.
    public func uniqueIndexColumns(ofTable table: String) throws -> [Set<String>] {
        var names: [String] = []
        let indexes = try prepare(#"SELECT name, "unique" FROM pragma_index_list(?, 'main')"#)
        try indexes.bind([.text(table)])
        try indexes.forEachRow { row in
            if row.int64(at: 1) == 1, let name = row.text(at: 0) { names.append(name) }
        }
        let columns = try prepare("SELECT name FROM pragma_index_info(?, 'main')")
        return try names.map { name in
            var set: Set<String> = []
            try columns.bind([.text(name)])
            try columns.forEachRow { row in
                if let column = row.text(at: 0) { set.insert(column) }
            }
            return set
        }
    }
}
