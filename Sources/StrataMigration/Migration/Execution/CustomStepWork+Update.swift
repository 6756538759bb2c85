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
    /// No object is made on either side. Without a predicate the whole
    /// update is one SQL statement: SQLite joins the destination's table
    /// with the source's by key and calls `value` for each row, in one
    /// transaction of the work copy. With a predicate the matching source
    /// rows are read through one statement and written by one prepared
    /// `UPDATE` per object, committed every ``batchSize`` objects. The
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
        if predicate == nil {
            try updateInOneStatement(plan, entity: entity, value)
            return
        }
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

    /// The update of every object, as one `UPDATE … FROM` of the
    /// destination joined with the attached source (``AttachedRowUpdate``):
    /// SQLite calls `value` per row, no statement is stepped from Swift.
    private func updateInOneStatement(
        _ plan: BatchUpdatePlan, entity: String, _ value: (SourceRow) throws -> AttributeValue?
    ) throws {
        let sourceURL = source.store.url
        let place = try source.rowReader.entity(entity)
        var columns: [String] = []
        for attribute in plan.sourceAttributes {
            guard let column = place.attributeColumns[attribute.name] else {
                throw ContextError(
                    .unknownProperty,
                    "the source store has no column for \(entity).\(attribute.name)")
            }
            columns.append(column)
        }
        let update = AttachedRowUpdate(
            layout: plan.layout, column: plan.column, source: sourceURL, sourcePlace: place,
            sourceColumns: columns)
        let batchSize = Int64(self.batchSize)
        var done: Int64 = 0
        try withoutActuallyEscaping(value) { value in
            _ = try update.run(on: destination.store.connection) { arguments in
                let row = try plan.row(arguments, storeURL: sourceURL)
                let stored = try plan.stored(try value(row), key: row.primaryKey)
                done += 1
                if done % batchSize == 0 { self.progress(entity, done) }
                return stored
            }
        }
        if done % batchSize != 0 || done == 0 { progress(entity, done) }
    }
}
