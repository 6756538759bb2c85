// MARK: - What unarchive will check

extension BundleArchiver {
    /// Checks the store's references between objects as `unarchive` checks
    /// the store it loads from the bundle (``BundleLoader``'s
    /// ``Store/checkRelationships(model:tables:)``: keys naming existing
    /// rows of the right entity, entity columns, both sides of every
    /// one-to-one pair, join rows), so that no bundle is written that
    /// Strata would refuse to unarchive.
    ///
    /// The bundle holds the store's keys as they are, so the store's
    /// references are the bundle's. The queries run in the archive's read
    /// transaction, before anything is written: one join per to-one and per
    /// join table, against the primary keys.
    ///
    /// - Throws: ``ExportError`` (`store`) naming the first object whose
    ///   reference does not hold, and how many more there are.
    func verifyReferences() throws {
        // The loader checks neither Z_ENT nor Z_MAX: it writes both itself.
        let problems = try store.checkRelationships(
            model: model, tables: nil, knownJoinColumns: [], checksTables: false)
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
