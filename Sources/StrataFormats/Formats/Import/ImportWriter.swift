import Foundation
import StrataCore
import StrataStore

/// Writes imported rows through the store's ``RowWriter``, binding each
/// cell once: what `NSBatchInsertRequest` is to Core Data, but behind the
/// importer's checks. The importer's view of the row layer: its rows are
/// ``ImportCell``s laid out by each plan's ``EntityRowLayout``.
///
/// In a dry run nothing is executed that writes: keys are still handed
/// out, so the rest of the import behaves the same.
final class ImportWriter {
    /// The store's row writer, for the run.
    let rows: RowWriter
    var connection: Connection { rows.connection }
    var isDryRun: Bool { !rows.writes }
    /// Whether join rows are buffered (``RowWriter/buffersJoins``).
    var buffersJoins: Bool {
        get { rows.buffersJoins }
        set { rows.buffersJoins = newValue }
    }
    /// The plans holding a key counter, released with the writer.
    private var plans: [EntityImportPlan] = []
    /// The store's row reader, for key lookups.
    let reader: RowReader
    private var statements: [RowQuery: Statement] = [:]

    init(reader: RowReader, isDryRun: Bool) throws {
        self.reader = reader
        rows = RowWriter(connection: reader.connection, writes: !isDryRun)
    }

    deinit {
        for plan in plans { plan.keyCounter = nil }
    }

    /// Gives `plan` its tree's key counter.
    package func prepare(_ plan: EntityImportPlan) throws {
        guard plan.keyCounter == nil else { return }
        plan.keyCounter = try rows.keyCounter(for: plan.layout)
        plans.append(plan)
    }

    /// A fresh primary key for a row of `plan`.
    func nextKey(for plan: EntityImportPlan) -> Int64 {
        plan.keyCounter?.next() ?? 0
    }

    /// Inserts a row of `plan` with primary key `key`.
    package func insert(_ cells: [ImportCell], key: Int64, plan: EntityImportPlan) throws {
        if isDryRun { return }
        let statement = try rows.insertStatement(for: plan.layout)
        try statement.bind(key, at: EntityRowLayout.keyParameter)
        var index = EntityRowLayout.firstValueParameter
        for cell in cells {
            try cell.bind(to: statement, at: index)
            index += 1
        }
        defer { statement.reset() }
        _ = try statement.step()
    }

    /// Updates the cells of row `key` that are not ``ImportCell/absent``
    /// and adds 1 to its `Z_OPT`.
    package func update(_ cells: [ImportCell], key: Int64, plan: EntityImportPlan) throws {
        var columns: [(column: Int, value: SQLiteValue)] = []
        for (index, cell) in cells.enumerated() {
            if case .absent = cell { continue }
            columns.append((index, cell.sqliteValue))
        }
        try rows.update(plan.layout, key: key, columns: columns)
    }

    /// Sets the to-one `slot` of row `key` of `plan` to `destination`.
    func setToOne(
        _ slot: EntityImportPlan.RelationshipSlot, of key: Int64, plan: EntityImportPlan,
        to destination: Int64, destinationNumber: Int, order: Int64? = nil
    ) throws {
        guard let keyCell = slot.foreignKeyCell else { return }
        var columns: [(column: Int, value: SQLiteValue)] = [(keyCell, .integer(destination))]
        if let entityCell = slot.entityCell {
            columns.append((entityCell, .integer(Int64(destinationNumber))))
        }
        if let orderCell = slot.orderCell, let order {
            columns.append((orderCell, .integer(order)))
        }
        try rows.update(plan.layout, key: key, columns: columns)
    }

    /// Clears the to-one `slot` of the rows of `plan`'s table that name
    /// `destination`, but row `keeping`, adding 1 to their `Z_OPT`: the
    /// object a one-to-one paired with before, which the pair leaves.
    func unlinkToOne(
        _ slot: EntityImportPlan.RelationshipSlot, plan: EntityImportPlan,
        pointingAt destination: Int64, except keeping: Int64
    ) throws {
        guard let toOne = slot.toOne else { return }
        try rows.unlinkToOne(toOne, of: plan.layout, pointingAt: destination, except: keeping)
    }

    /// Adds the pair to a many-to-many join table (once); see
    /// ``RowWriter/join(_:source:destination:order:inverseOrder:)``.
    func join(
        _ mapping: StoreMapping.ToManyMapping, source: Int64, destination: Int64, order: Int64?,
        inverseOrder: String? = nil
    ) throws {
        try rows.join(
            mapping, source: source, destination: destination, order: order,
            inverseOrder: inverseOrder)
    }

    /// Writes the buffered join rows left (before a commit).
    func flushJoins() throws { try rows.flushJoins() }

    /// Removes what row `key` held through a to-many `mapping` before a
    /// re-import writes it again (``RowWriter/clearToMany(_:of:deletingDestinations:)``).
    func clearToMany(
        _ mapping: StoreMapping.ToManyMapping, of key: Int64, deletingDestinations: Bool
    ) throws {
        try rows.clearToMany(mapping, of: key, deletingDestinations: deletingDestinations)
    }

    /// Writes the keys handed out back to the store; run before each commit.
    func saveKeys() throws { try rows.saveKeys() }

    /// Adds 1 to `Z_OPT` of rows `keys` of `plan`'s table.
    func raiseOptimisticLock(of keys: [Int64], in plan: EntityImportPlan) throws {
        try rows.raiseVersion(of: keys, in: plan.table)
    }

    /// The rows `query` reads with `values` bound, through a kept
    /// statement.
    func query(_ query: RowQuery, _ values: [SQLiteValue], _ body: (Statement) throws -> Void)
        throws
    {
        let statement: Statement
        if let prepared = statements[query] {
            statement = prepared
        } else {
            statement = try reader.prepare(query)
            statements[query] = statement
        }
        try statement.bind(values)
        try statement.forEachRow(body)
    }
}
