import StrataContext
import StrataCore
import StrataQuery
import StrataSchema
import StrataStore

extension CustomStepWork {
    /// Sets attribute `attribute` of every destination counterpart of the
    /// source objects of `entity` (and its subentities) to what `value`
    /// computes from the source attributes named in `reading`: the batch
    /// form of ``forEachSourceObject(of:predicate:_:)`` for the common step
    /// that derives one value per object.
    ///
    /// ```swift
    /// struct Summaries: CustomMigrationStep {
    ///     func migrate(_ work: CustomStepWork) throws {
    ///         try work.update("Note", set: "summary", reading: ["title"]) { row in
    ///             .string("About " + (try row.string("title") ?? ""))
    ///         }
    ///     }
    /// }
    /// ```
    ///
    /// Only the named columns are read, through one statement, and the
    /// values are written by one prepared `UPDATE` per object, committed
    /// every ``batchSize`` objects; no object is made on either side. The
    /// value must fit the attribute's type and rules as a context save
    /// checks them (required, ranges, lengths, patterns); `Z_OPT` is raised
    /// by one, as a save raises it.
    ///
    /// - Parameters:
    ///   - entity: A source entity name.
    ///   - attribute: The attribute of the destination entity to set.
    ///   - reading: The source attributes `value` reads.
    ///   - predicate: Only source objects matching it, when given.
    ///   - value: The new value for one object; nil for none.
    /// - Throws: ``ContextError`` (`unknownEntity`, `unknownProperty`,
    ///   `wrongType`) for names the versions lack or a value of the wrong
    ///   type, ``ValidationError`` for a value that breaks the attribute's
    ///   rules (the objects written before stay written, as with a save per
    ///   batch; the stage then fails and leaves the store as it was), and what
    ///   `value` or the store throws.
    public func update(
        _ entity: String, set attribute: String, reading: [String],
        where predicate: FetchPredicate? = nil,
        _ value: (SourceRow) throws -> AttributeValue?
    ) throws {
        let plan = try BatchUpdatePlan(
            self, entity: entity, attribute: attribute, reading: reading, predicate: predicate)
        destination.reset()
        let statement = try source.rowReader.prepare(plan.query)
        let connection = destination.store.connection
        let rows = RowWriter(connection: connection)
        let update = try rows.updateStatement(
            for: plan.layout, columns: [plan.column], version: .increment)
        var done: Int64 = 0
        var more = try statement.step()
        while more {
            try connection.inTransaction(.immediate) {
                var written = 0
                while more && written < batchSize {
                    let row = try plan.row(statement, storeURL: source.store.url)
                    let stored = try plan.stored(try value(row), key: row.primaryKey)
                    try rows.write(update, [stored, .integer(row.primaryKey)])
                    written += 1
                    more = try statement.step()
                }
                done += Int64(written)
            }
            progress(entity, done)
        }
    }
}
