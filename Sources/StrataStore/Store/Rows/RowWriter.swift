import StrataCore

/// Writes the rows of a Core Data store — entity rows, their to-one links,
/// order columns and join-table rows — inside the caller's write
/// transaction, with statements prepared once per run: the one writer of
/// Core Data's bookkeeping (`Z_PK` from ``KeyAllocator``, `Z_ENT`, `Z_OPT`)
/// behind the context's save, the importer, the bundle loader and a
/// migration's mapping rules.
///
/// Rows are laid out by ``EntityRowLayout``. Hot paths bind values in place:
/// ``insertStatement(for:rows:)`` hands out the prepared `INSERT` with
/// `Z_ENT` and `Z_OPT` bound, and the caller binds the key and the columns
/// (borrowed bytes included) at the layout's parameters.
///
/// A writer made with `writes: false` (a dry run) executes nothing that
/// writes: keys are still handed out, so the rest of a run behaves the same.
package final class RowWriter {
    /// How an update changes a row's `Z_OPT`.
    package enum VersionChange {
        /// `Z_OPT + 1`: the row changed under a writer that did not read it.
        case increment
        /// The version the writer computed (a context's read version + 1).
        case set(Int64)
        /// Unchanged: a migration rewriting values the app never saw change.
        case keep
    }

    /// The store's connection, in the caller's write transaction.
    package let connection: Connection
    /// Whether statements that write are executed (false: a dry run).
    package let writes: Bool
    /// Whether join rows wait to be written ``JoinRowInsert/rowsPerStatement``
    /// to a statement (fewer statements to step); only where nothing reads a
    /// join table before ``flushJoins()``.
    package var buffersJoins = false

    /// The prepared inserts, by layout and rows per statement (by layout,
    /// not SQL: entities of one tree share a table and its `INSERT`, but
    /// not the `Z_ENT` bound in it).
    private var inserts: [InsertShape: (layout: EntityRowLayout, statement: Statement)] = [:]
    private struct InsertShape: Hashable {
        let layout: ObjectIdentifier
        let rows: Int
    }
    /// The key counters, read when the first key is asked for.
    private var keys: KeyAllocator?
    /// The prepared statements of the run, by SQL (from the connection's
    /// cache, so a context's next save finds them compiled).
    private var statements: [String: Statement] = [:]
    /// A join table as written from one side: both relationships of a
    /// many-to-many pair write the same table, each from its own column.
    private struct JoinSide: Hashable {
        let table: String
        let sourceColumn: String
        let replacesOrder: Bool
    }
    /// The statements dropping an object, by the root of its tree
    /// (``drop(_:ofTreeRootedAt:model:tables:)``).
    var drops: [String: [Statement]] = [:]
    /// The insert of each join table side written in the run.
    private var joinInserts: [JoinSide: JoinRowInsert] = [:]

    /// A writer on `connection`.
    package init(connection: Connection, writes: Bool = true) {
        self.connection = connection
        self.writes = writes
    }

    // MARK: Keys

    /// The key counter of `layout`'s inheritance tree (above every key in
    /// its table even where `Z_MAX` lags behind).
    package func keyCounter(for layout: EntityRowLayout) throws -> KeyAllocator.Counter {
        if let keys { return try keys.counter(forRoot: layout.rootName, table: layout.table) }
        let keys = try KeyAllocator(connection: connection)
        self.keys = keys
        return try keys.counter(forRoot: layout.rootName, table: layout.table)
    }

    /// Writes the keys handed out back to the store: before each commit.
    package func saveKeys() throws {
        if writes { try keys?.save() }
    }

    /// Writes what waits (buffered join rows, the keys handed out): before
    /// each commit.
    package func finish() throws {
        try flushJoins()
        try saveKeys()
    }

    // MARK: Rows

    /// The prepared `INSERT` of `rows` whole rows of `layout`
    /// (``EntityRowLayout/insertSQL(rows:)``), with every row's `Z_ENT` and
    /// `Z_OPT` (1) bound; the caller binds each row's key and columns, then
    /// runs it with ``write(_:_:)``, which does nothing in a dry run (a
    /// caller stepping it itself must not in one either, see ``writes``).
    /// Kept for the run.
    package func insertStatement(for layout: EntityRowLayout, rows: Int = 1) throws -> Statement {
        let shape = InsertShape(layout: ObjectIdentifier(layout), rows: rows)
        if let prepared = inserts[shape] { return prepared.statement }
        let statement = try connection.cachedStatement(
            rows == 1 ? layout.insertSQL : layout.insertSQL(rows: rows))
        try bindVersions(of: layout, rows: rows, in: statement)
        inserts[shape] = (layout, statement)  // The layout kept: its identity is the key.
        return statement
    }

    /// A statement like ``insertStatement(for:rows:)``'s but of the
    /// caller's own, for callers that bind some parameters once for a whole
    /// run (the importer's plain rows): it must not outlive the writer's
    /// connection.
    package func newInsertStatement(for layout: EntityRowLayout, rows: Int = 1) throws -> Statement
    {
        let statement = try connection.prepare(
            rows == 1 ? layout.insertSQL : layout.insertSQL(rows: rows))
        try bindVersions(of: layout, rows: rows, in: statement)
        return statement
    }

    /// Binds `Z_ENT` and `Z_OPT` (1) of each of the `rows` of `statement`.
    private func bindVersions(of layout: EntityRowLayout, rows: Int, in statement: Statement)
        throws
    {
        for row in 0..<Int32(max(1, rows)) {
            let base = row * Int32(layout.parametersPerRow)
            try statement.bind(Int64(layout.number), at: base + EntityRowLayout.keyParameter + 1)
            try statement.bind(Int64(1), at: base + EntityRowLayout.keyParameter + 2)
        }
    }

    /// The prepared whole-row ``EntityRowLayout/updateSQL`` of `layout`;
    /// the caller binds `Z_OPT`, the row's columns and its key.
    package func updateStatement(for layout: EntityRowLayout) throws -> Statement {
        try prepared(layout.updateSQL)
    }

    /// Runs `statement`, an insert or update this writer handed out
    /// (``insertStatement(for:rows:)``, ``updateStatement(for:)``,
    /// ``updateStatement(for:columns:version:)``), with the parameters the
    /// caller bound in place, or with `values` (one per parameter, in
    /// order) when given; nothing in a dry run.
    package func write(_ statement: Statement, _ values: [SQLiteValue]? = nil) throws {
        guard writes else { return }
        if let values { try statement.execute(values) } else { try statement.execute() }
    }

    /// Sets `columns` (indexes into the layout's columns) of row `key` and
    /// changes its `Z_OPT` as `version` says.
    package func update(
        _ layout: EntityRowLayout, key: Int64, columns: [(column: Int, value: SQLiteValue)],
        version: VersionChange = .increment
    ) throws {
        guard writes else { return }
        var values: [SQLiteValue] = []
        if case .set(let number) = version { values.append(.integer(number)) }
        values += columns.map(\.value)
        values.append(.integer(key))
        try updateStatement(for: layout, columns: columns.map(\.column), version: version)
            .execute(values)
    }

    /// The prepared `UPDATE` of `columns` (indexes into the layout's
    /// columns) of one row, kept for the run: its parameters are the
    /// version (for ``VersionChange/set(_:)``), each column's value, then
    /// the row's `Z_PK`.
    package func updateStatement(
        for layout: EntityRowLayout, columns: [Int], version: VersionChange
    ) throws -> Statement {
        var assignments: [String] =
            switch version {
            case .increment: ["Z_OPT = Z_OPT + 1"]
            case .set: ["Z_OPT = ?"]
            case .keep: columns.isEmpty ? ["Z_OPT = Z_OPT"] : []
            }
        for column in columns {
            assignments.append("\(SQLiteIdentifier.quoted(layout.columns[column])) = ?")
        }
        return try prepared(
            "UPDATE \(SQLiteIdentifier.quoted(layout.table)) SET "
                + assignments.joined(separator: ", ") + " WHERE Z_PK = ?")
    }

    /// Clears to-one `toOne` of `layout` in the rows that point at
    /// `destination`, but row `keeping`, adding 1 to their `Z_OPT`: the
    /// object a one-to-one paired with before, which the pair leaves.
    package func unlinkToOne(
        _ toOne: EntityRowLayout.ToOne, of layout: EntityRowLayout,
        pointingAt destination: Int64, except keeping: Int64
    ) throws {
        guard writes else { return }
        let key = SQLiteIdentifier.quoted(layout.columns[toOne.foreignKey])
        var assignments = ["\(key) = NULL", "Z_OPT = Z_OPT + 1"]
        if let entity = toOne.entity {
            assignments.append("\(SQLiteIdentifier.quoted(layout.columns[entity])) = NULL")
        }
        try run(
            "UPDATE \(SQLiteIdentifier.quoted(layout.table)) SET "
                + assignments.joined(separator: ", ") + " WHERE \(key) = ? AND Z_PK <> ?",
            [.integer(destination), .integer(keeping)])
    }

    /// Adds 1 to `Z_OPT` of rows `keys` of `table`, a few hundred keys per
    /// statement: rows whose relationships changed from the other side.
    package func raiseVersion(of keys: [Int64], in table: String) throws {
        guard writes else { return }
        var start = 0
        while start < keys.count {
            let chunk = keys[start..<min(start + 500, keys.count)]
            try connection.execute(
                "UPDATE \(SQLiteIdentifier.quoted(table)) SET Z_OPT = Z_OPT + 1 WHERE Z_PK IN ("
                    + chunk.map { _ in "?" }.joined(separator: ", ") + ")",
                chunk.map { .integer($0) })
            start += 500
        }
    }

    /// The `Z_OPT` row `key` of `table` has now, or nil when it is gone: what
    /// a writer holding an older version compares before it overwrites.
    package func storedVersion(of key: Int64, in table: String) throws -> Int64? {
        let statement = try prepared(
            "SELECT Z_OPT FROM \(SQLiteIdentifier.quoted(table)) WHERE Z_PK = ?")
        try statement.bind([.integer(key)])
        defer { statement.reset() }
        return try statement.step() ? statement.int64(at: 0) : nil
    }

    /// Deletes row `key` of `table`.
    package func delete(_ key: Int64, from table: String) throws {
        guard writes else { return }
        try run("DELETE FROM \(SQLiteIdentifier.quoted(table)) WHERE Z_PK = ?", [.integer(key)])
    }

    // MARK: Links

    /// Sets order column `column` of row `key` of `table` (an ordered
    /// to-many kept by its members' foreign keys).
    package func setOrder(_ order: Int64, column: String, of key: Int64, in table: String) throws {
        guard writes else { return }
        try run(
            "UPDATE \(SQLiteIdentifier.quoted(table)) SET \(SQLiteIdentifier.quoted(column)) = ? "
                + "WHERE Z_PK = ?",
            [.integer(order), .integer(key)])
    }

    /// Adds the pair to a many-to-many join table (once).
    ///
    /// - Parameter inverseOrder: The column of the source's place among the
    ///   destination's own (ordered) list, when the inverse is ordered: the
    ///   source goes after the destination's present members, as a
    ///   context's save and a migration's linker place it.
    package func join(
        _ mapping: StoreMapping.ToManyMapping, source: Int64, destination: Int64, order: Int64?,
        inverseOrder: String? = nil
    ) throws {
        guard
            case .joinTable(let table, let sourceColumn, let destinationColumn, let orderColumn) =
                mapping, writes
        else { return }
        if let inverseOrder {
            // One row at a time: each place depends on the rows before it.
            try joinInsert(
                table: table, sourceColumn: sourceColumn, destinationColumn: destinationColumn,
                orderColumn: orderColumn
            ).flush()
            let quoted = SQLiteIdentifier.quoted
            var columns = [sourceColumn, destinationColumn]
            var values = ["?1", "?2"]
            if let orderColumn {
                columns.append(orderColumn)
                values.append("?3")
            }
            columns.append(inverseOrder)
            values.append(
                OrderKey.sql(
                    after: "(SELECT MAX(\(quoted(inverseOrder))) FROM \(quoted(table)) WHERE "
                        + "\(quoted(destinationColumn)) = ?2)"))
            var arguments: [SQLiteValue] = [.integer(source), .integer(destination)]
            if orderColumn != nil { arguments.append(.integer(order ?? 0)) }
            try run(
                "INSERT OR IGNORE INTO \(quoted(table)) ("
                    + columns.map(quoted).joined(separator: ", ") + ") VALUES ("
                    + values.joined(separator: ", ") + ")", arguments)
            return
        }
        let insert = try joinInsert(
            table: table, sourceColumn: sourceColumn, destinationColumn: destinationColumn,
            orderColumn: orderColumn)
        try insert.add(source: source, destination: destination, order: order ?? 0)
        if !buffersJoins { try insert.flush() }
    }

    /// The batched insert into join table `table` from the side whose key
    /// is in `sourceColumn`, kept for the run; ``flushJoins()`` writes what
    /// waits in every one.
    package func joinInsert(
        table: String, sourceColumn: String, destinationColumn: String, orderColumn: String?,
        replacesOrder: Bool = false
    ) throws -> JoinRowInsert {
        let side = JoinSide(table: table, sourceColumn: sourceColumn, replacesOrder: replacesOrder)
        if let known = joinInserts[side] { return known }
        var columns = [sourceColumn, destinationColumn]
        if let orderColumn { columns.append(orderColumn) }
        let insert = try JoinRowInsert(
            connection: connection, table: table, columns: columns, replacesOrder: replacesOrder)
        joinInserts[side] = insert
        return insert
    }

    /// Writes the rows of join table `table` that `source` links to
    /// `members` anew, replacing what it held: its place in each ordered
    /// list is its position (`order`) and `inverseOrders`' entries (the
    /// inverse's order column, when ordered).
    package func replaceJoinRows(
        of source: Int64, table: String, sourceColumn: String, destinationColumn: String,
        order: String?, inverseOrder: String?, members: [(key: Int64, inversePlace: Int64)]
    ) throws {
        guard writes else { return }
        try deleteJoinRows(of: source, table: table, column: sourceColumn)
        var columns = [sourceColumn, destinationColumn]
        if let order { columns.append(order) }
        if let inverseOrder { columns.append(inverseOrder) }
        let statement = try prepared(
            "INSERT OR REPLACE INTO \(SQLiteIdentifier.quoted(table)) ("
                + columns.map(SQLiteIdentifier.quoted).joined(separator: ", ") + ") VALUES ("
                + Array(repeating: "?", count: columns.count).joined(separator: ", ") + ")")
        for (position, member) in members.enumerated() {
            var values: [SQLiteValue] = [.integer(source), .integer(member.key)]
            if order != nil { values.append(.integer(OrderKey.at(position))) }
            if inverseOrder != nil { values.append(.integer(member.inversePlace)) }
            try statement.execute(values)
        }
    }

    /// Deletes the rows of join table `table` whose `column` holds `key`.
    package func deleteJoinRows(of key: Int64, table: String, column: String) throws {
        guard writes else { return }
        try run(
            "DELETE FROM \(SQLiteIdentifier.quoted(table)) WHERE \(SQLiteIdentifier.quoted(column)) = ?",
            [.integer(key)])
    }

    /// Writes the buffered join rows left (before a commit).
    package func flushJoins() throws {
        let sides = joinInserts.keys.sorted {
            ($0.table, $0.sourceColumn) < ($1.table, $1.sourceColumn)
        }
        for side in sides { try joinInserts[side]?.flush() }
    }

    /// Removes what row `key` held through a to-many `mapping` before it is
    /// written again: owned children (cascade) are deleted, others
    /// unlinked (their `Z_OPT` raised), join rows deleted.
    package func clearToMany(
        _ mapping: StoreMapping.ToManyMapping, of key: Int64, deletingDestinations: Bool
    ) throws {
        guard writes else { return }
        switch mapping {
        case .inverseForeignKey(let table, let column, _):
            let (table, column) = (SQLiteIdentifier.quoted(table), SQLiteIdentifier.quoted(column))
            if deletingDestinations {
                try run("DELETE FROM \(table) WHERE \(column) = ?", [.integer(key)])
            } else {
                try run(
                    "UPDATE \(table) SET \(column) = NULL, Z_OPT = Z_OPT + 1 WHERE \(column) = ?",
                    [.integer(key)])
            }
        case .joinTable(let table, let sourceColumn, _, _):
            try deleteJoinRows(of: key, table: table, column: sourceColumn)
        }
    }

    // MARK: Statements

    /// Runs `sql` with `values` through a statement kept for the run.
    private func run(_ sql: String, _ values: [SQLiteValue]) throws {
        try prepared(sql).execute(values)
    }

    /// The statement of `sql`, prepared once for the run.
    func prepared(_ sql: String) throws -> Statement {
        if let statement = statements[sql] { return statement }
        let statement = try connection.cachedStatement(sql)
        statements[sql] = statement
        return statement
    }
}
