import StrataCore
import StrataSchema

// MARK: - The layout as a store has it

extension StoreLayout {
    /// This layout with the names an actual store uses where they can differ
    /// from the computed ones: join tables found by their two key columns
    /// (Core Data names a reflexive pair's table after either relationship,
    /// and its migrations switch sides, coredata-format.md §1.6), and every
    /// table's indexes as `sqlite_master` lists them (index names depend on
    /// the framework version that created them).
    ///
    /// A migration plan built on the fitted layout drops and copies what
    /// exists under its real name, never an assumed one.
    ///
    /// - Parameter connection: The store's connection; only read.
    /// - Returns: The fitted layout, and the join tables no table of the
    ///   store holds (both key columns missing from every table).
    /// - Throws: ``SQLiteError`` when `sqlite_master` cannot be read.
    package func fitted(to connection: Connection) throws -> (
        layout: StoreLayout, missingJoinTables: [JoinTableLayout]
    ) {
        var tableNames: [String] = []
        try connection.prepare(
            "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name"
        ).forEachRow { row in
            if let name = row.text(at: 0) { tableNames.append(name) }
        }
        // Join tables by their primary-key columns (upper-cased, sorted).
        var tableByKeys: [[String]: String] = [:]
        for name in tableNames where name.uppercased().hasPrefix("Z_") {
            let keys = try connection.columns(ofTable: name).filter { $0.primaryKeyIndex > 0 }
                .map { $0.name.uppercased() }.sorted()
            if keys.count == 2, tableByKeys[keys] == nil { tableByKeys[keys] = name }
        }

        var missing: [JoinTableLayout] = []
        var renamed: [String: String] = [:]  // Computed join table name → actual.
        var fittedJoins: [JoinTableLayout] = []
        for join in joinTables {
            let keys = [join.sourceColumn, join.destinationColumn].map { $0.uppercased() }.sorted()
            guard let actual = tableByKeys[keys] else {
                missing.append(join)
                fittedJoins.append(join)
                continue
            }
            var fitted = join
            fitted.name = actual
            fitted.actualIndexes = try Self.indexes(of: actual, connection)
            renamed[join.name] = actual
            fittedJoins.append(fitted)
        }
        var fittedTables: [TableLayout] = []
        let existing = Set(tableNames.map { $0.uppercased() })
        for table in entityTables {
            var fitted = table
            if existing.contains(table.name.uppercased()) {
                fitted.indexes = try Self.indexes(of: table.name, connection)
            }
            fittedTables.append(fitted)
        }
        var fittedEntities = entities
        for index in fittedEntities.indices {
            fittedEntities[index].joinTables = fittedEntities[index].joinTables.mapValues {
                renamed[$0] ?? $0
            }
        }
        let layout = StoreLayout(
            model: model, entities: fittedEntities, entityTables: fittedTables,
            joinTables: fittedJoins, positions: positions)
        return (layout, missing)
    }

    /// The indexes SQLite lists for `table` that a `DROP INDEX` can drop
    /// (those made by `CREATE INDEX`, not a constraint's automatic index),
    /// with their columns and order, in name order.
    static func indexes(of table: String, _ connection: Connection) throws -> [TableLayout.Index] {
        var listed: [(name: String, isUnique: Bool)] = []
        let list = try connection.prepare(
            #"SELECT name, "unique" FROM pragma_index_list(?, 'main') WHERE origin = 'c' ORDER BY name"#
        )
        try list.bind([.text(table)])
        try list.forEachRow { row in
            if let name = row.text(at: 0) { listed.append((name, row.int64(at: 1) != 0)) }
        }
        var indexes: [TableLayout.Index] = []
        for (name, isUnique) in listed {
            let info = try connection.prepare(
                #"SELECT name, "desc" FROM pragma_index_xinfo(?, 'main') WHERE key = 1 ORDER BY seqno"#
            )
            try info.bind([.text(name)])
            var columns: [String] = []
            var descending: Set<String> = []
            try info.forEachRow { row in
                // An expression column has no name; such an index is still
                // dropped by name, so it keeps a placeholder.
                let column = row.text(at: 0) ?? "(expression)"
                columns.append(column)
                if row.int64(at: 1) != 0 { descending.insert(column) }
            }
            indexes.append(
                TableLayout.Index(
                    name: name, columns: columns, isUnique: isUnique, isFetchIndexStyle: true,
                    descendingColumns: descending))
        }
        return indexes
    }

    /// A layout with every part given (the fitted copy of a computed one).
    private init(
        model: Model, entities: [EntityLayout], entityTables: [TableLayout],
        joinTables: [JoinTableLayout], positions: [String: Int]
    ) {
        self.model = model
        self.entities = entities
        self.entityTables = entityTables
        self.joinTables = joinTables
        self.positions = positions
    }
}

extension TableLayout.Index {
    /// What the index does, whatever it is called: its columns (upper-cased,
    /// as SQLite compares them), their order, and uniqueness. `COLLATE
    /// BINARY ASC` is SQLite's default, so Core Data's two spellings of one
    /// index are the same index.
    var definition: [String] {
        [isUnique ? "UNIQUE" : ""]
            + columns.map { column in
                column.uppercased() + (descendingColumns.contains(column) ? " DESC" : "")
            }
    }

    /// Whether `other` is this index under the same name (SQLite ignores
    /// the case of names) with the same definition.
    package func isSame(as other: TableLayout.Index) -> Bool {
        name.uppercased() == other.name.uppercased() && definition == other.definition
    }
}
