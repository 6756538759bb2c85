/// The prepared `INSERT` of one entity's rows when a bundle is loaded, in
/// the column order of its ``EntityColumns``; values are bound per row,
/// NULL by default.
final class EntityInsert {
    /// The columns the statement writes.
    let columns: EntityColumns
    private let statement: Statement

    init(columns: EntityColumns, connection: Connection) throws {
        self.columns = columns
        let names = columns.insertColumns
        statement = try connection.prepare(
            "INSERT INTO \(SQLiteIdentifier.quoted(columns.table)) (\(names.joined(separator: ", "))) "
                + "VALUES (" + names.map { _ in "?" }.joined(separator: ", ") + ")")
    }

    /// Starts a row with key `key`: every other value NULL.
    func reset(key: Int64) {
        statement.clearBindings()
        try? statement.bind(.integer(key), at: 1)  // Parameters 1–3 always exist.
        try? statement.bind(.integer(Int64(columns.number)), at: 2)
        try? statement.bind(.integer(1), at: 3)
    }

    /// Sets attribute `slot`.
    func set(_ slot: Int, _ value: SQLiteValue) throws {
        try statement.bind(value, at: Int32(slot + 4))
    }

    /// Makes room for `count` bytes in attribute `slot`, written after the
    /// row is inserted (through ``Blob``).
    func setZeroBlob(_ slot: Int, count: Int) throws {
        try statement.bindZeroBlob(count: count, at: Int32(slot + 4))
    }

    /// Sets to-one `slot` to the object `key` of entity `entityNumber`.
    func setToOne(_ slot: Int, key: Int64, entityNumber: Int) {
        let parameter = columns.toOneParameters[slot]
        try? statement.bind(.integer(key), at: parameter)  // The parameter exists: built above.
        if columns.toOneHasEntityColumn[slot] {
            try? statement.bind(.integer(Int64(entityNumber)), at: parameter + 1)
        }
    }

    /// Inserts the row.
    func run() throws {
        try statement.execute()
    }
}
