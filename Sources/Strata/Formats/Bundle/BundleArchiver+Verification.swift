// MARK: - What unarchive will check

extension BundleArchiver {
    /// Checks the store's to-one references as `unarchive` checks the store
    /// it loads from the bundle (``Store/checkRelationships(model:tables:)``,
    /// as ``BundleLoader`` calls it: keys naming existing rows of the right
    /// entity, entity columns, both sides of every one-to-one pair), so that
    /// no bundle is written that Strata would refuse to unarchive. Join
    /// tables are checked after the data pass, by
    /// ``verifyJoinTables(_:mapping:)``.
    ///
    /// The bundle holds the store's keys as they are, so the store's
    /// references are the bundle's. The queries run in the archive's read
    /// transaction, before anything is written: one join per to-one,
    /// against the primary keys.
    ///
    /// - Throws: ``ExportError`` (`store`) naming the first object whose
    ///   reference does not hold, and how many more there are.
    func verifyReferences(mapping: StoreMapping) throws {
        var joinColumns: Set<String> = []
        for entity in mapping.entities.values {
            for case .joinTable(let table, let source, let destination, _) in entity.toMany.values {
                joinColumns.insert(table + "." + source)
                joinColumns.insert(table + "." + destination)
            }
        }
        // The loader checks neither Z_ENT nor Z_MAX: it writes both itself.
        try refuse(
            store.checkRelationships(
                model: model, tables: nil, knownJoinColumns: joinColumns, checksTables: false))
    }

    /// Checks the join tables as `unarchive` will, from what the data pass
    /// listed: a many-to-many pair whose two sides list the same links (the
    /// summaries `links` made of the lines, as the loader makes them) loads
    /// only keys of objects of the bundle, and the loader checks it no
    /// further; the other join tables (sides that disagree, ordered or
    /// one-sided to-manys) are checked in SQL, as the loader checks them.
    ///
    /// - Throws: ``ExportError`` (`store`) naming the first object whose
    ///   link does not hold.
    func verifyJoinTables(_ links: BundleJoinLinks, mapping: StoreMapping) throws {
        let known = links.knownColumns
        var tables: Set<String> = []
        for entity in mapping.entities.values {
            for case .joinTable(let table, let source, let destination, _) in entity.toMany.values
            where !known.contains(table + "." + source) || !known.contains(table + "." + destination)
            {
                tables.insert(table)
            }
        }
        guard !tables.isEmpty else { return }
        try refuse(
            store.checkRelationships(
                model: model, tables: tables, knownJoinColumns: known, checksTables: false))
    }

    private func refuse(_ problems: [RelationshipProblem]) throws {
        guard let first = problems.first else { return }
        let more =
            problems.count == 1
            ? "" : " (and \(problems.count - 1) more; `strata check` lists every one)"
        throw ExportError(
            .store, path: store.path,
            "the objects' references do not hold, so unarchive would refuse the bundle: "
                + "\(first)\(more)")
    }
}

/// The summaries of the many-to-many links the data pass lists, filled
/// through ``ExportValueReader/listedLink`` (a class: the hook outlives the
/// call that sets it).
final class ArchivedJoinLinks {
    var links: BundleJoinLinks

    init(_ links: BundleJoinLinks) { self.links = links }
}
