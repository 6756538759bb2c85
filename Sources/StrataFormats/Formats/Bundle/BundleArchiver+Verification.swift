import StrataSchema
import StrataStore

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
            where !known.contains(table + "." + source)
                || !known.contains(table + "." + destination)
            {
                tables.insert(table)
            }
        }
        guard !tables.isEmpty else { return }
        try refuse(
            store.checkRelationships(
                model: model, tables: tables, knownJoinColumns: known, checksTables: false))
    }

    /// The schema's rule checks of the attributes `query` writes, by field
    /// index: the ones `unarchive` applies to each line
    /// (``AttributeCheck``, as ``EntityColumns/checks`` makes them).
    ///
    /// - Throws: ``ContextError`` for a pattern that does not compile.
    func valueChecks(of query: ExportQuery) throws -> [(field: Int, check: AttributeCheck)] {
        var checks: [(field: Int, check: AttributeCheck)] = []
        for (index, field) in query.fields.enumerated() {
            if case .attribute(let attribute, _) = field.source,
                let check = try AttributeCheck(attribute)
            {
                checks.append((index, check))
            }
        }
        return checks
    }

    /// Checks the values of `record` (the object `id`) against `checks` as
    /// `unarchive` checks its line: a store holding a value that breaks a
    /// rule of its schema (written before the rule, or by another program)
    /// gives no bundle that Strata would refuse. A few comparisons per
    /// attribute with rules.
    ///
    /// - Throws: ``ExportError`` (`store`) naming the object and the rule.
    func verifyValues(
        of record: ImportRecord, id: @autoclosure () -> String,
        checks: [(field: Int, check: AttributeCheck)],
        bounds: [(field: Int, bounds: AttributeCheck.Bounds)]
    ) throws {
        // Plain bounds first (no reference counted per value); the full
        // check only for a value they do not settle, to say what is wrong.
        for index in bounds.indices {
            let (field, bound) = bounds[index]
            guard field < record.fields.count else { continue }
            let value = record.fields[field].value
            switch value {
            case .null: if bound.isOptional { continue }
            case .text(let text): if bound.accepts(textOfBytes: text.utf8.count) { continue }
            case .integer(let number): if bound.accepts(number: Double(number)) { continue }
            case .real(let number): if bound.accepts(number: number) { continue }
            case .date(let date):
                if bound.accepts(number: date.timeIntervalSinceReferenceDate) { continue }
            default: continue
            }
            let check = checks[index].check
            let violation: AttributeCheck.Violation?
            switch value {
            case .null: violation = check.checkMissing()
            case .text(let text): violation = check.check(text: text)
            case .integer(let number): violation = check.check(number: Double(number))
            case .real(let number): violation = check.check(number: number)
            case .date(let date):
                violation = check.check(number: date.timeIntervalSinceReferenceDate)
            default: violation = nil
            }
            if let violation {
                throw ExportError(
                    .store, path: store.path,
                    "\(id()): \(violation.message), so unarchive would refuse the bundle")
            }
        }
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
