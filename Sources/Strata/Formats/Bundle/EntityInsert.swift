/// The prepared `INSERT`s of one entity's rows when a bundle is loaded, in
/// the column order of its ``EntityColumns``: one row at a time (values
/// bound per row, NULL by default), or ``rowsPerStatement`` rows of a
/// batch at once — a statement of many rows costs about what a few of one
/// row do.
final class EntityInsert {
    /// The columns the statements write.
    let columns: EntityColumns
    /// The rows of the many-row statement.
    let rowsPerStatement: Int
    private let statement: Statement
    private let many: Statement

    init(columns: EntityColumns, connection: Connection) throws {
        self.columns = columns
        let names = columns.insertColumns
        let head =
            "INSERT INTO \(SQLiteIdentifier.quoted(columns.table)) (\(names.joined(separator: ", "))) VALUES "
        let row = "(" + names.map { _ in "?" }.joined(separator: ", ") + ")"
        // SQLite takes at most 32,766 parameters in one statement.
        rowsPerStatement = max(1, min(16, 32_766 / names.count))
        statement = try connection.prepare(head + row)
        many = try connection.prepare(
            head + Array(repeating: row, count: rowsPerStatement).joined(separator: ", "))
    }

    /// Inserts ``rowsPerStatement`` objects of `batch`, from `first`, none of
    /// which has media, in one statement.
    ///
    /// - Throws: ``SQLiteError`` (a key twice: the caller finds the line
    ///   by inserting the rows one by one).
    func insertMany(_ batch: BundleObjectBatch, from first: Int) throws {
        let attributeCount = columns.attributes.count
        let toOneCount = columns.toOneRelationships.count
        let width = Int32(columns.insertColumns.count)
        many.clearBindings()
        for row in 0..<rowsPerStatement {
            let object = first + row
            let base = Int32(row) * width
            try many.bind(batch.keys[object], at: base + 1)
            try many.bind(Int64(columns.number), at: base + 2)
            try many.bind(Int64(1), at: base + 3)
            let values = object * attributeCount
            for slot in 0..<attributeCount {
                let value = batch.values[values + slot]
                if case .null = value { continue }
                try many.bind(value, at: base + Int32(slot + 4))
            }
            let toOne = object * toOneCount
            for slot in 0..<toOneCount where batch.toOneKeys[toOne + slot] != 0 {
                let parameter = base + columns.toOneParameters[slot]
                try many.bind(batch.toOneKeys[toOne + slot], at: parameter)
                if columns.toOneHasEntityColumn[slot] {
                    try many.bind(Int64(batch.toOneEntities[toOne + slot]), at: parameter + 1)
                }
            }
        }
        try many.execute()
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

    /// Sets attribute `slot` to `bytes`, not copied: they must stay valid
    /// until ``run()`` returns.
    func setBlob(_ slot: Int, bytes: UnsafeRawBufferPointer) throws {
        try statement.bind(blob: bytes, at: Int32(slot + 4))
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
