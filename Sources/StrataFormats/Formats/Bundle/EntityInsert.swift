import StrataCore
import StrataStore

/// Binds the rows of one entity's bundle lines to the ``RowWriter``'s
/// `INSERT`s of its ``EntityRowLayout``: one row at a time (its media bound
/// after its values), or ``rowsPerStatement`` rows of a batch at once — a
/// statement of many rows costs about what a few of one row do.
final class EntityInsert {
    /// The columns the statements write.
    let columns: EntityColumns
    /// The rows of the many-row statement.
    let rowsPerStatement: Int
    private let statement: Statement
    private let many: Statement
    private let writer: RowWriter

    init(columns: EntityColumns, writer: RowWriter) throws {
        self.columns = columns
        self.writer = writer
        // SQLite takes at most 32,766 parameters in one statement.
        rowsPerStatement = max(1, min(16, 32_766 / columns.layout.parametersPerRow))
        statement = try writer.insertStatement(for: columns.layout)
        many = try writer.insertStatement(for: columns.layout, rows: rowsPerStatement)
    }

    /// Inserts ``rowsPerStatement`` objects of `batch`, from `first`, none of
    /// which has media, in one statement. `bytes` are the batch's
    /// ``BundleObjectBatch/bytes``, bound in place.
    ///
    /// - Throws: ``SQLiteError`` (a key twice: the caller finds the line
    ///   by inserting the rows one by one).
    func insertMany(
        _ batch: BundleObjectBatch, from first: Int, bytes: UnsafeBufferPointer<UInt8>
    ) throws {
        many.clearBindings()
        let width = Int32(columns.layout.parametersPerRow)
        for row in 0..<rowsPerStatement {
            try bind(first + row, of: batch, bytes: bytes, to: many, from: Int32(row) * width)
        }
        defer { many.clearBindings() }  // Nothing keeps pointing into `bytes`.
        try writer.write(many)
    }

    /// Binds object `object` of `batch` (every value but its media) to the
    /// one-row statement; ``setBlob(_:bytes:)`` and
    /// ``setZeroBlob(_:count:)`` add the media, ``run()`` inserts. `bytes`
    /// are the batch's ``BundleObjectBatch/bytes``, bound in place: they
    /// must stay valid until ``run()`` returns.
    func bindOne(
        _ object: Int, of batch: BundleObjectBatch, bytes: UnsafeBufferPointer<UInt8>
    ) throws {
        statement.clearBindings()
        try bind(object, of: batch, bytes: bytes, to: statement, from: 0)
    }

    /// Binds one row's key, entity, attributes and to-ones to `target`,
    /// its parameters starting after `base`; NULLs are left unbound.
    private func bind(
        _ object: Int, of batch: BundleObjectBatch, bytes: UnsafeBufferPointer<UInt8>,
        to target: Statement, from base: Int32
    ) throws {
        try target.bind(batch.keys[object], at: base + 1)
        try target.bind(Int64(columns.number), at: base + 2)
        try target.bind(Int64(1), at: base + 3)
        let attributeCount = columns.attributes.count
        let values = object * attributeCount
        for slot in 0..<attributeCount {
            let value = batch.values[values + slot]
            let parameter = base + EntityRowLayout.parameter(ofColumn: slot)
            switch value.kind {
            case .null: continue
            case .integer: try target.bind(value.payload, at: parameter)
            case .real:
                try target.bind(
                    Double(bitPattern: UInt64(bitPattern: value.payload)), at: parameter)
            case .text:
                try target.bind(
                    utf8: UnsafeBufferPointer(
                        rebasing: bytes[Int(value.payload)..<(Int(value.payload) + value.count)]),
                    at: parameter)
            case .blob:
                try target.bind(
                    blob: UnsafeRawBufferPointer(
                        UnsafeBufferPointer(
                            rebasing: bytes[Int(value.payload)..<(Int(value.payload) + value.count)]
                        )),
                    at: parameter)
            }
        }
        let toOneCount = columns.toOneRelationships.count
        let toOne = object * toOneCount
        for slot in 0..<toOneCount where batch.toOneKeys[toOne + slot] != 0 {
            let parameter = base + columns.toOneParameters[slot]
            try target.bind(batch.toOneKeys[toOne + slot], at: parameter)
            if let entity = columns.toOneEntityParameters[slot] {
                try target.bind(Int64(batch.toOneEntities[toOne + slot]), at: base + entity)
            }
        }
    }

    /// Sets attribute `slot` to `bytes`, not copied: they must stay valid
    /// until ``run()`` returns.
    func setBlob(_ slot: Int, bytes: UnsafeRawBufferPointer) throws {
        try statement.bind(blob: bytes, at: EntityRowLayout.parameter(ofColumn: slot))
    }

    /// Makes room for `count` bytes in attribute `slot`, written after the
    /// row is inserted (through ``Blob``).
    func setZeroBlob(_ slot: Int, count: Int) throws {
        try statement.bindZeroBlob(count: count, at: EntityRowLayout.parameter(ofColumn: slot))
    }

    /// Inserts the row bound by ``bindOne(_:of:bytes:)``.
    package func run() throws {
        defer { statement.clearBindings() }  // Nothing keeps pointing into the batch.
        try writer.write(statement)
    }
}
