import StrataCore

/// Inserts the rows of one join table, as one side of a many-to-many pair
/// writes them (its own key column first), ``rowsPerStatement`` at a time:
/// one statement of many rows costs about what a few one-row statements
/// do, and a bundle or an import has a link per tag of every entry.
/// `INSERT OR IGNORE`, so a link listed twice is kept once; or, for a
/// loader whose later listing of a link wins, an upsert of its order.
///
/// Rows wait until a batch is full or ``flush()``; whoever reads the table
/// flushes first. Made and kept by ``RowWriter/joinInsert(table:sourceColumn:destinationColumn:orderColumn:)``.
package final class JoinRowInsert {
    /// The rows of the many-row statement.
    static let rowsPerStatement = 32
    /// The values of a row: source, destination (and order).
    let width: Int

    private let one: Statement
    private let many: Statement
    private var pending: [Int64] = []

    /// The insert into `table` of `columns` (source, destination and, when
    /// the relationship is ordered, its order column); with `replacesOrder`
    /// a link already there takes the new order.
    init(connection: Connection, table: String, columns: [String], replacesOrder: Bool) throws {
        width = columns.count
        let head =
            (replacesOrder ? "INSERT INTO " : "INSERT OR IGNORE INTO ")
            + SQLiteIdentifier.quoted(table) + " ("
            + columns.map(SQLiteIdentifier.quoted).joined(separator: ", ") + ") VALUES "
        var tail = ""
        if replacesOrder, columns.count == 3 {
            let order = SQLiteIdentifier.quoted(columns[2])
            tail = " ON CONFLICT DO UPDATE SET \(order) = excluded.\(order)"
        }
        let row = "(" + Array(repeating: "?", count: columns.count).joined(separator: ", ") + ")"
        one = try connection.prepare(head + row + tail)
        many = try connection.prepare(
            head + Array(repeating: row, count: Self.rowsPerStatement).joined(separator: ", ")
                + tail)
        pending.reserveCapacity(width * Self.rowsPerStatement)
    }

    /// Adds the link of `source` to `destination` (at `order`, when the
    /// table has an order column); written by a later ``flush()`` at the
    /// latest.
    package func add(source: Int64, destination: Int64, order: Int64 = 0) throws {
        pending.append(source)
        pending.append(destination)
        if width == 3 { pending.append(order) }
        if pending.count == width * Self.rowsPerStatement {
            for (index, value) in pending.enumerated() {
                try many.bind(value, at: Int32(index + 1))
            }
            try many.execute()
            pending.removeAll(keepingCapacity: true)
        }
    }

    /// Writes the links still waiting.
    package func flush() throws {
        var start = 0
        while start + width <= pending.count {
            for offset in 0..<width {
                try one.bind(pending[start + offset], at: Int32(offset + 1))
            }
            try one.execute()
            start += width
        }
        pending.removeAll(keepingCapacity: true)
    }
}
