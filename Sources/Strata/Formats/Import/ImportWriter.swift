import Foundation

/// Writes imported rows with prepared statements, binding each value once:
/// what `NSBatchInsertRequest` is to Core Data, but behind the importer's
/// checks. Primary keys come from the store's ``KeyAllocator``, handed out
/// in memory while the import holds the write transaction and written back
/// before each commit; new rows get `Z_OPT` 1, updates add 1.
///
/// In a dry run nothing is executed that writes: keys are still handed
/// out, so the rest of the import behaves the same.
final class ImportWriter {
    let connection: Connection
    let isDryRun: Bool
    /// The key counters of the inheritance trees, shared by their entities' plans.
    private let keys: KeyAllocator
    /// The prepared insert into each join table.
    private var joins: [String: Statement] = [:]
    /// Whether join rows wait in ``pendingJoins`` to be written
    /// ``joinRowsPerStatement`` to a statement (fewer statements to step);
    /// only where nothing reads a join table before ``flushJoins()``.
    var buffersJoins = false
    /// The join rows not written yet, by table: source, destination (and
    /// order) of each.
    private var pendingJoins: [String: [Int64]] = [:]
    /// The columns of each table with buffered rows.
    private var joinColumns: [String: [String]] = [:]
    /// The prepared insert of ``joinRowsPerStatement`` rows into each table.
    private var batchJoins: [String: Statement] = [:]
    /// Join rows per batched insert.
    static let joinRowsPerStatement = 32
    /// The plans holding a prepared insert, released with the writer.
    private var plans: [EntityImportPlan] = []
    private var statements: [String: Statement] = [:]

    init(connection: Connection, isDryRun: Bool) throws {
        self.connection = connection
        self.isDryRun = isDryRun
        keys = try KeyAllocator(connection: connection)
    }

    deinit {
        // Statements must not outlive the run: the store's connection
        // cannot close while they exist.
        for plan in plans {
            plan.insertStatement = nil
            plan.keyCounter = nil
        }
    }

    /// Gives `plan` its tree's key counter (``KeyAllocator``: above every
    /// key in its table even where `Z_MAX` lags behind).
    func prepare(_ plan: EntityImportPlan) throws {
        guard plan.keyCounter == nil else { return }
        plan.keyCounter = try keys.counter(forRoot: plan.rootName, table: plan.table)
        plans.append(plan)
    }

    /// A fresh primary key for a row of `plan`.
    func nextKey(for plan: EntityImportPlan) -> Int64 {
        plan.keyCounter?.next() ?? 0
    }

    /// Inserts a row of `plan` with primary key `key`.
    func insert(_ cells: [ImportCell], key: Int64, plan: EntityImportPlan) throws {
        if isDryRun { return }
        let statement: Statement
        if let prepared = plan.insertStatement {
            statement = prepared
        } else {
            statement = try connection.prepare(plan.insertSQL)
            plan.insertStatement = statement
        }
        try statement.bind(key, at: 1)
        try statement.bind(Int64(plan.number), at: 2)
        try statement.bind(Int64(1), at: 3)
        var index: Int32 = 4
        for cell in cells {
            try cell.bind(to: statement, at: index)
            index += 1
        }
        defer { statement.reset() }
        _ = try statement.step()
    }

    /// Updates the cells of row `key` that are not ``ImportCell/absent``
    /// and adds 1 to its `Z_OPT`.
    func update(_ cells: [ImportCell], key: Int64, plan: EntityImportPlan) throws {
        if isDryRun { return }
        var assignments = ["Z_OPT = Z_OPT + 1"]
        var values: [SQLiteValue] = []
        for (index, cell) in cells.enumerated() {
            if case .absent = cell { continue }
            assignments.append("\(SQLiteIdentifier.quoted(plan.columns[index])) = ?")
            values.append(cell.sqliteValue)
        }
        try run(
            "UPDATE \(SQLiteIdentifier.quoted(plan.table)) SET "
                + assignments.joined(separator: ", ") + " WHERE Z_PK = ?",
            values + [.integer(key)])
    }

    /// Sets the to-one `slot` of row `key` of `plan` to `destination`.
    func setToOne(
        _ slot: EntityImportPlan.RelationshipSlot, of key: Int64, plan: EntityImportPlan,
        to destination: Int64, destinationNumber: Int, order: Int64? = nil
    ) throws {
        if isDryRun { return }
        guard let keyCell = slot.foreignKeyCell else { return }
        var assignments = ["\(SQLiteIdentifier.quoted(plan.columns[keyCell])) = ?"]
        var values: [SQLiteValue] = [.integer(destination)]
        if let entityCell = slot.entityCell {
            assignments.append("\(SQLiteIdentifier.quoted(plan.columns[entityCell])) = ?")
            values.append(.integer(Int64(destinationNumber)))
        }
        if let orderCell = slot.orderCell, let order {
            assignments.append("\(SQLiteIdentifier.quoted(plan.columns[orderCell])) = ?")
            values.append(.integer(order))
        }
        try run(
            "UPDATE \(SQLiteIdentifier.quoted(plan.table)) SET "
                + assignments.joined(separator: ", ") + " WHERE Z_PK = ?",
            values + [.integer(key)])
    }

    /// Clears the to-one `slot` of the rows of `plan`'s table that name
    /// `destination`, but row `keeping`, adding 1 to their `Z_OPT`: the
    /// object a one-to-one paired with before, which the pair leaves.
    func unlinkToOne(
        _ slot: EntityImportPlan.RelationshipSlot, plan: EntityImportPlan,
        pointingAt destination: Int64, except keeping: Int64
    ) throws {
        if isDryRun { return }
        guard let keyCell = slot.foreignKeyCell else { return }
        let key = SQLiteIdentifier.quoted(plan.columns[keyCell])
        var assignments = ["\(key) = NULL", "Z_OPT = Z_OPT + 1"]
        if let entityCell = slot.entityCell {
            assignments.append("\(SQLiteIdentifier.quoted(plan.columns[entityCell])) = NULL")
        }
        try run(
            "UPDATE \(SQLiteIdentifier.quoted(plan.table)) SET "
                + assignments.joined(separator: ", ") + " WHERE \(key) = ? AND Z_PK <> ?",
            [.integer(destination), .integer(keeping)])
    }

    /// Adds the pair to a many-to-many join table (once).
    ///
    /// - Parameter inverseOrder: The column of the source's place among the
    ///   destination's own (ordered) list, when the inverse is ordered: the
    ///   source goes after the destination's present members, as
    ///   `Context.save` and a migration's linker place it.
    func join(
        _ mapping: StoreMapping.ToManyMapping, source: Int64, destination: Int64, order: Int64?,
        inverseOrder: String? = nil
    ) throws {
        guard
            case .joinTable(let table, let sourceColumn, let destinationColumn, let orderColumn) =
                mapping, !isDryRun
        else { return }
        if let inverseOrder {
            // One row at a time: each place depends on the rows before it.
            try flushJoins(of: table)
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
            let statement = try connection.cachedStatement(
                "INSERT OR IGNORE INTO \(quoted(table)) ("
                    + columns.map(quoted).joined(separator: ", ") + ") VALUES ("
                    + values.joined(separator: ", ") + ")")
            var arguments: [SQLiteValue] = [.integer(source), .integer(destination)]
            if orderColumn != nil { arguments.append(.integer(order ?? 0)) }
            try statement.bind(arguments)
            try statement.execute()
            statement.reset()
            return
        }
        var columns = [sourceColumn, destinationColumn]
        if let orderColumn { columns.append(orderColumn) }
        if buffersJoins {
            var values = pendingJoins[table, default: []]
            pendingJoins[table] = nil  // Appended in place, not copied.
            values.append(source)
            values.append(destination)
            if orderColumn != nil { values.append(order ?? 0) }
            joinColumns[table] = columns
            if values.count == columns.count * Self.joinRowsPerStatement {
                try insertJoinRows(values, into: table, columns: columns)
                values.removeAll(keepingCapacity: true)
            }
            pendingJoins[table] = values
            return
        }
        let statement = try joinStatement(table, columns: columns)
        try statement.bind(source, at: 1)
        try statement.bind(destination, at: 2)
        if orderColumn != nil { try statement.bind(order ?? 0, at: 3) }
        try statement.execute()
    }

    /// The prepared insert of one row into join table `table`.
    private func joinStatement(_ table: String, columns: [String]) throws -> Statement {
        if let prepared = joins[table] { return prepared }
        let statement = try connection.prepare(
            "INSERT OR IGNORE INTO \(SQLiteIdentifier.quoted(table)) ("
                + columns.map(SQLiteIdentifier.quoted).joined(separator: ", ") + ") VALUES ("
                + Array(repeating: "?", count: columns.count).joined(separator: ", ") + ")")
        joins[table] = statement
        return statement
    }

    /// Writes ``joinRowsPerStatement`` buffered join rows with one statement.
    private func insertJoinRows(_ values: [Int64], into table: String, columns: [String]) throws {
        let statement: Statement
        if let prepared = batchJoins[table] {
            statement = prepared
        } else {
            let row =
                "(" + Array(repeating: "?", count: columns.count).joined(separator: ", ") + ")"
            statement = try connection.prepare(
                "INSERT OR IGNORE INTO \(SQLiteIdentifier.quoted(table)) ("
                    + columns.map(SQLiteIdentifier.quoted).joined(separator: ", ") + ") VALUES "
                    + Array(repeating: row, count: Self.joinRowsPerStatement).joined(
                        separator: ", "))
            batchJoins[table] = statement
        }
        for (index, value) in values.enumerated() {
            try statement.bind(value, at: Int32(index + 1))
        }
        try statement.execute()
    }

    /// Writes the buffered join rows left (before a commit).
    func flushJoins() throws {
        for table in pendingJoins.keys.sorted() { try flushJoins(of: table) }
        pendingJoins = [:]
    }

    /// Writes the buffered join rows of `table`.
    private func flushJoins(of table: String) throws {
        guard let values = pendingJoins.removeValue(forKey: table), !values.isEmpty,
            let columns = joinColumns[table]
        else { return }
        let statement = try joinStatement(table, columns: columns)
        let width = columns.count
        var start = 0
        while start + width <= values.count {
            for offset in 0..<width {
                try statement.bind(values[start + offset], at: Int32(offset + 1))
            }
            try statement.execute()
            start += width
        }
    }

    /// Removes what row `key` held through a to-many `mapping` before a
    /// re-import writes it again: owned children (cascade) are deleted,
    /// others unlinked, join rows deleted.
    func clearToMany(
        _ mapping: StoreMapping.ToManyMapping, of key: Int64, deletingDestinations: Bool
    ) throws {
        if isDryRun { return }
        switch mapping {
        case .inverseForeignKey(let table, let column, _):
            if deletingDestinations {
                try run(
                    "DELETE FROM \(SQLiteIdentifier.quoted(table)) WHERE \(SQLiteIdentifier.quoted(column)) = ?",
                    [.integer(key)])
            } else {
                try run(
                    "UPDATE \(SQLiteIdentifier.quoted(table)) SET \(SQLiteIdentifier.quoted(column)) = NULL, "
                        + "Z_OPT = Z_OPT + 1 WHERE \(SQLiteIdentifier.quoted(column)) = ?",
                    [.integer(key)])
            }
        case .joinTable(let table, let sourceColumn, _, _):
            try run(
                "DELETE FROM \(SQLiteIdentifier.quoted(table)) WHERE \(SQLiteIdentifier.quoted(sourceColumn)) = ?",
                [.integer(key)])
        }
    }

    /// Writes the keys handed out back to the store; run before each commit.
    func saveKeys() throws {
        if isDryRun { return }
        try keys.save()
    }

    /// Adds 1 to `Z_OPT` of rows `keys` of `plan`'s table, a few hundred
    /// keys per statement.
    func raiseOptimisticLock(of keys: [Int64], in plan: EntityImportPlan) throws {
        if isDryRun { return }
        var start = 0
        while start < keys.count {
            let chunk = keys[start..<min(start + 500, keys.count)]
            try connection.execute(
                "UPDATE \(SQLiteIdentifier.quoted(plan.table)) SET Z_OPT = Z_OPT + 1 WHERE Z_PK IN ("
                    + chunk.map { _ in "?" }.joined(separator: ", ") + ")",
                chunk.map { .integer($0) })
            start += 500
        }
    }

    /// Runs `sql` with `values` through a statement kept for the run.
    func run(_ sql: String, _ values: [SQLiteValue]) throws {
        let statement: Statement
        if let prepared = statements[sql] {
            statement = prepared
        } else {
            statement = try connection.prepare(sql)
            statements[sql] = statement
        }
        try statement.execute(values)
    }

    /// The rows `sql` selects with `values`, through a kept statement.
    func query(_ sql: String, _ values: [SQLiteValue], _ body: (Statement) throws -> Void) throws {
        let statement: Statement
        if let prepared = statements[sql] {
            statement = prepared
        } else {
            statement = try connection.prepare(sql)
            statements[sql] = statement
        }
        try statement.bind(values)
        try statement.forEachRow(body)
    }
}
