import Foundation
import StrataCore

/// Sets one column of every row of an entity's table from a Swift function
/// of the same-keyed row of another store, in one `UPDATE … FROM`: the
/// other store is attached, SQLite joins the two tables by `Z_PK` and calls
/// the function once per row, so no statement is stepped from Swift per
/// row. A migration's batch custom step runs on it.
package struct AttachedRowUpdate {
    /// The rows written.
    let layout: EntityRowLayout
    /// The column set, an index into the layout's columns.
    let column: Int
    /// The other store's file and the table and entities read from it.
    let source: URL
    let sourcePlace: StoreMapping.EntityMapping
    /// The other store's columns passed to the function, after the key.
    let sourceColumns: [String]

    package init(
        layout: EntityRowLayout, column: Int, source: URL,
        sourcePlace: StoreMapping.EntityMapping, sourceColumns: [String]
    ) {
        self.layout = layout
        self.column = column
        self.source = source
        self.sourcePlace = sourcePlace
        self.sourceColumns = sourceColumns
    }

    /// Runs the update on `connection`, in one write transaction, raising
    /// each written row's `Z_OPT` by one. `value` gets the source row's key
    /// then ``sourceColumns``; an error it throws ends the update, and the
    /// transaction is rolled back.
    ///
    /// - Returns: The number of rows written.
    /// - Throws: What `value` throws, ``SQLiteError``.
    package func run(
        on connection: Connection,
        _ value: @escaping (SQLFunctionArguments) throws -> SQLiteValue
    ) throws -> Int {
        let quoted = SQLiteIdentifier.quoted
        try connection.execute("ATTACH DATABASE ? AS strata_step_source", [.text(source.path)])
        defer { try? connection.execute("DETACH DATABASE strata_step_source") }  // Only read.
        let name = "strata_step_value"
        let count = sourceColumns.count + 1
        try connection.registerFunction(name, argumentCount: count, deterministic: false, value)
        // Replaced after the run: the connection would otherwise keep `value`
        // (and what it captures) alive until it closes.
        defer { try? connection.registerFunction(name, argumentCount: count) { _ in .null } }
        let target = "main." + quoted(layout.table)
        let arguments = (["s.Z_PK"] + sourceColumns.map { "s." + quoted($0) })
            .joined(separator: ", ")
        let numbers = sourcePlace.treeNumbers.map(String.init).joined(separator: ", ")
        let sql =
            "UPDATE \(target) SET \(quoted(layout.columns[column])) = "
            + "strata_step_value(\(arguments)), Z_OPT = \(target).Z_OPT + 1 "
            + "FROM strata_step_source.\(quoted(sourcePlace.table)) AS s "
            + "WHERE s.Z_PK = \(target).Z_PK AND s.Z_ENT IN (\(numbers))"
        return try connection.inTransaction(.immediate) {
            try connection.execute(sql)
            return connection.changes
        }
    }
}
