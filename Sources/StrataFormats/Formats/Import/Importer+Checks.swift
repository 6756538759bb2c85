import StrataCore
import StrataStore

// MARK: - The checks an import ends with

extension Importer {
    /// Checks the references of the rows this import wrote before its last
    /// commit, with the store's own reference check
    /// (``Store/checkRelationships(model:tables:)``, as unarchive, merge and
    /// migration end): foreign keys, both sides of every one-to-one, join
    /// rows. Only the rows the import inserted or linked are read, and only
    /// their problems count: a store that held a problem before is not the
    /// import's to refuse, and the check costs what the import wrote.
    ///
    /// A problem found here is a defect of the importer, not of the input:
    /// the transaction is rolled back (with `--on-error skip`, the last
    /// batch; earlier batches are committed) and the store is named.
    func checkWrittenReferences() throws {
        // The first key this import handed out, by table.
        var firstNewKey: [String: Int64] = [:]
        var linked: [String: Set<Int64>] = [:]
        for plan in plans.values {
            if let counter = plan.keyCounter, counter.maximum > counter.start {
                firstNewKey[plan.table] = counter.start + 1
            }
            if !plan.linkedExistingKeys.isEmpty {
                linked[plan.table, default: []].formUnion(plan.linkedExistingKeys)
            }
        }
        let tables = Set(firstNewKey.keys).union(linked.keys)
        // An entity without relationships in a model without links to it
        // (the common flat import) gets no query at all.
        guard !tables.isEmpty,
            model.entities.contains(where: { entity in
                entity.relationships.contains {
                    tables.contains(mapping.entities[entity.name]?.table ?? "")
                        || tables.contains(mapping.entities[$0.destination]?.table ?? "")
                }
            })
        else { return }
        // Each check reads only the rows written (key ranges from the first
        // new key, the linked keys listed); what it reports is filtered to
        // them again, for a table with more linked rows than a query lists.
        let rows = WrittenRows(firstNewKey: firstNewKey, linked: linked)
        let problems = try store.checkRelationships(
            model: model, tables: tables, knownJoinColumns: [], checksTables: false,
            written: rows)
        let written = problems.filter { problem in
            guard let key = problem.primaryKey,
                let table = mapping.entities[problem.entity]?.table
            else { return false }
            return rows.contains(key, in: table)
        }
        guard let first = written.first else { return }
        let more = written.count > 1 ? " (and \(written.count - 1) more)" : ""
        throw ImportError(
            .store, at: SourcePosition(file: store.path),
            "the rows this import wrote fail the store's reference check, so they were "
                + "rolled back: \(first)\(more); this is a defect of Strata's importer, "
                + "please report it with the input")
    }
}
