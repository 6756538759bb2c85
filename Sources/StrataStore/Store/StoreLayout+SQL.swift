// MARK: - SQL text

extension StoreLayout {
    /// Core Data's fixed bookkeeping tables (coredata-format.md §1.2), exactly
    /// as Core Data writes them.
    public static let bookkeepingStatements = [
        "CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER)",
        "CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB)",
    ]

    /// Every statement that creates the store's tables and indexes, in the
    /// order Core Data creates them: entity tables (each followed by the join
    /// tables its entities name), then indexes, then the bookkeeping tables.
    ///
    /// The text matches what `sqlite3 .schema` shows for a store Core Data
    /// created for the same model.
    public var createStatements: [String] {
        var tableOfEntity: [String: String] = [:]
        for entity in entities { tableOfEntity[entity.name] = entity.tableName }
        var joinTablesByTable: [String: [TableLayout]] = [:]
        for join in joinTables {
            guard let table = tableOfEntity[join.namingSide.entity] else { continue }
            joinTablesByTable[table, default: []].append(join.table)
        }
        var tables: [TableLayout] = []
        for table in entityTables {
            tables.append(table)
            tables += joinTablesByTable[table.name] ?? []
        }
        return tables.map(StoreLayout.createTableSQL)
            + tables.flatMap { table in
                table.indexes.map { StoreLayout.createIndexSQL($0, on: table.name) }
            }
            + StoreLayout.bookkeepingStatements
    }

    /// `CREATE TABLE` for `table`, spaced as Core Data spaces it.
    package static func createTableSQL(_ table: TableLayout) -> String {
        let keys = table.columns.filter(\.isPrimaryKey)
        var parts = table.columns.map { column in
            keys.count == 1 && column.isPrimaryKey
                ? "\(SQLName.sql(column.name)) \(column.type) PRIMARY KEY"
                : "\(SQLName.sql(column.name)) \(column.type)"
        }
        if keys.count > 1 {
            parts.append(
                "PRIMARY KEY (\(keys.map { SQLName.sql($0.name) }.joined(separator: ", ")))")
        }
        return "CREATE TABLE \(SQLName.sql(table.name)) ( \(parts.joined(separator: ", ")) )"
    }

    /// `CREATE [UNIQUE] INDEX` for `index`.
    package static func createIndexSQL(_ index: TableLayout.Index, on table: String) -> String {
        let columns = index.columns.map { column in
            guard index.isFetchIndexStyle else { return SQLName.sql(column) }
            let order = index.descendingColumns.contains(column) ? "DESC" : "ASC"
            return "\(SQLName.sql(column)) COLLATE BINARY \(order)"
        }
        return "CREATE \(index.isUnique ? "UNIQUE " : "")INDEX \(SQLName.sql(index.name))"
            + " ON \(SQLName.sql(table)) (\(columns.joined(separator: ", ")))"
    }
}
