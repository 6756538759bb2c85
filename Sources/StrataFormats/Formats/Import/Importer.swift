import Foundation
import StrataCore
import StrataQuery
import StrataSchema
import StrataStore

/// Bulk-loads records from a reader into a store: maps fields to
/// properties, converts and checks every value by the schema's rules, links
/// relationships, upserts on a unique key, and writes through prepared
/// statements in few transactions.
///
/// ```swift
/// let store = try Store.open(at: storeURL)
/// let reader = try CSVReader(path: "contacts.csv")
/// let importer = try Importer(store: store, model: model, options: ImportOptions(entity: "Contact"))
/// let summary = try importer.run(reader)
/// print(summary.inserted)
/// ```
///
/// With the default ``ImportOptions/ErrorPolicy/abort`` policy the whole
/// import is one transaction: the first bad record throws an
/// ``ImportError`` with its place and the store is unchanged. With
/// ``ImportOptions/ErrorPolicy/skip`` bad records go to ``rejects`` and the
/// rest commit every ``ImportOptions/commitInterval`` records. The import
/// holds the store's lock shared, so it never interleaves with a migration,
/// and checks before each commit that the store is still at its version.
public final class Importer {
    /// The store written to.
    public let store: Store
    /// The store's model.
    public let model: Model
    /// The options of this import.
    public let options: ImportOptions
    /// Called every few thousand records with how far the import has got.
    public var progress: ((ImportProgress) -> Void)?
    /// Receives the bad records when the policy is ``ImportOptions/ErrorPolicy/skip``.
    public var rejects: (any RejectWriter)?

    let mapping: StoreMapping
    let coercerFactory: (String) -> ValueCoercer
    var plans: [String: EntityImportPlan] = [:]
    var writer: ImportWriter?
    var coercer: ValueCoercer?
    let completer = RowCompleter(now: Date().timeIntervalSinceReferenceDate)
    var summary = ImportSummary()
    /// Keys of the unique-key entity seen in the store or written in this
    /// run: key text → (primary key, written by this run). Keyed by bytes,
    /// as the store compares keys (``ExactText``).
    var keyIndex: [ExactText: (key: Int64, isFromThisRun: Bool)] = [:]
    /// The unique keys the record being written added to ``keyIndex``: a
    /// record rolled back takes them out again.
    var keysOfRecord: [ExactText] = []
    /// Links to objects of the imported entity not found yet: resolved after
    /// the last record (references to records later in the file).
    var pendingLinks: [PendingLink] = []
    /// The objects written for records with an `_id` field: that id →
    /// (primary key, entity number), for links by object id in the input.
    var importedIDs: [String: (key: Int64, entity: Int)] = [:]
    /// Entities whose existing keys were read whole (no unique index).
    var preloadedKeys: Set<String> = []
    /// The `relatedBy` attribute of each relationship used, found once.
    var relatedByCache: [RelatedByKey: (EntityImportPlan, Int)?] = [:]
    /// Computes the attributes of ``ImportOptions/computed``; a result may
    /// be as large as a field read.
    lazy var evaluator = ExpressionEvaluator(
        maximumResultBytes: options.limits.maximumFieldBytes)
    /// Whether the computed attributes of flat inputs are compiled when
    /// their expressions allow (``CompiledComputation``); tests turn it off
    /// to compare with the interpreter.
    var compilesComputations = true
    /// The fields expressions name that no record has had yet (inputs of
    /// nested values, whose fields only their records show).
    var computedFieldsState: ComputedFieldsState?
    /// Objects the current input record has made so far (itself and its
    /// nested records), against ``ImportLimits/maximumObjectsPerRecord``.
    var objectsOfRecord = 0
    var verifiedMetadata: Data?
    var hasStoredSchema = false
    var recordsInTransaction = 0
    private var indexedColumnSets: [String: [Set<String>]] = [:]

    /// A relationship, by its destination and name, for ``relatedByCache``.
    struct RelatedByKey: Hashable {
        let destination: String
        let relationship: String
    }

    /// A link whose destination is looked up after the whole input.
    struct PendingLink {
        let plan: EntityImportPlan
        let source: Int64
        /// Whether the source was an object of the store (an upsert).
        let sourceExisted: Bool
        let slot: Int
        let key: ImportCell
        let position: SourcePosition
        let kind: LinkKind
    }

    /// Prepares an import into `store`, whose version `model` is.
    ///
    /// - Throws: ``StoreError`` (`unknownVersion`) naming both versions when
    ///   the model's version hashes are not the store's (values of
    ///   properties its tables lack would be dropped); ``StoreError`` when
    ///   the model's entities are not in the store.
    public init(store: Store, model: Model, options: ImportOptions) throws {
        if let mismatch = store.versionMismatch(with: model) {
            throw StoreError(.unknownVersion, path: store.path, message: mismatch)
        }
        self.store = store
        self.model = model
        self.options = options
        self.mapping = try StoreMapping(model: model, store: store)
        self.coercerFactory = { ValueCoercer(options: options, inputFile: $0) }
        let propertyNames = Set(
            model.entities.flatMap { $0.attributes.map(\.name) + $0.relationships.map(\.name) })
        if let unknown = options.fieldNulls.keys.sorted().first(where: {
            !propertyNames.contains($0)
        }) {
            throw ImportError(
                .structure, at: SourcePosition(file: ""),
                "missing-value tokens are given for '\(unknown)', which is no property of the model"
            )
        }
    }

    /// The options of the related entities' plans: only the missing-value
    /// tokens carry over (field names, keys and computations are the
    /// imported entity's).
    var relatedOptions: ImportOptions {
        var related = ImportOptions()
        related.nulls = options.nulls
        related.fieldNulls = options.fieldNulls
        return related
    }

    // MARK: - Plans

    /// The plan of `entity`, made once.
    func plan(_ entity: String) throws -> EntityImportPlan {
        if let known = plans[entity] { return known }
        guard let table = mapping.entities[entity]?.table else {
            throw ImportError(
                .structure, at: SourcePosition(file: store.path),
                "the model has no entity '\(entity)' (entities: "
                    + model.entities.filter { !$0.isAbstract }.map(\.name).sorted().joined(
                        separator: ", ") + ")")
        }
        let plan = try EntityImportPlan(
            entity: entity, model: model, mapping: mapping,
            options: entity == summary.entity ? options : relatedOptions,
            indexedColumnSets: try uniqueIndexes(of: table))
        plans[entity] = plan
        try writer?.prepare(plan)
        return plan
    }

    /// The column sets of the table's unique indexes.
    func uniqueIndexes(of table: String) throws -> [Set<String>] {
        if let known = indexedColumnSets[table] { return known }
        let sets = try store.connection.uniqueIndexColumns(ofTable: table)
        indexedColumnSets[table] = sets
        return sets
    }

    /// The entity records of `fields` become: the option, the group's
    /// entity, the model's only entity, or the only entity every field fits.
    func chooseEntity(fields: [String], group: String?, at position: SourcePosition) throws
        -> String
    {
        let concrete = model.entities.filter { !$0.isAbstract }.map(\.name).sorted()
        if let entity = group.flatMap({ options.pathEntities[$0] }) ?? options.entity {
            guard concrete.contains(entity) else {
                throw ImportError(
                    .structure, at: position,
                    "the model has no entity '\(entity)' that can have objects (entities: "
                        + concrete.joined(separator: ", ") + ")")
            }
            return entity
        }
        if let group {
            // A dotted JSON path's group is named by its last key.
            let folded = FieldNameFolding.fold(String(group.split(separator: ".").last ?? ""))
            let singular = [folded, String(folded.dropLast()), String(folded.dropLast(2))]
            if let match = concrete.first(where: { singular.contains(FieldNameFolding.fold($0)) }) {
                return match
            }
        }
        if concrete.count == 1, let only = concrete.first { return only }
        var fitting: [String] = []
        // The entity most fields fit, with the fields it lacks, for the
        // error when none fits them all.
        var best: (entity: EntityImportPlan, unmatched: [String])?
        // Only the field names matter for the fit; the key and computed
        // attributes belong to the entity finally chosen.
        var fieldsOnly = ImportOptions()
        fieldsOnly.fieldMap = options.fieldMap
        for name in concrete {
            let candidate = try EntityImportPlan(
                entity: name, model: model, mapping: mapping, options: fieldsOnly,
                indexedColumnSets: [])
            let unmatched = fields.filter { candidate.target(forField: $0) == nil }
            if !fields.isEmpty, unmatched.isEmpty { fitting.append(name) }
            if unmatched.count < best?.unmatched.count ?? Int.max {
                best = (candidate, unmatched)
            }
        }
        guard fitting.count == 1, let chosen = fitting.first else {
            guard fitting.isEmpty else {
                throw ImportError(
                    .structure, at: position,
                    "several entities fit: \(fitting.joined(separator: ", ")); name the entity "
                        + "with --entity")
            }
            throw ImportError(.structure, at: position, Self.noFitMessage(fields, best: best))
        }
        return chosen
    }

    /// "No entity has every field", with the best-fitting entity and the
    /// fields it lacks: the real problem (unit-suffixed headers, a quoted
    /// header) in one go rather than after `--entity`.
    private static func noFitMessage(
        _ fields: [String], best: (entity: EntityImportPlan, unmatched: [String])?
    ) -> String {
        guard let best, best.unmatched.count < fields.count else {
            return UnknownFieldsHint.adding(
                to: "no entity has any of the fields (\(fields.joined(separator: ", "))); "
                    + "name the entity with --entity and map the fields with --map FIELD=property",
                unknown: fields)
        }
        let matched = fields.count - best.unmatched.count
        let names = best.unmatched.map { "'\($0)'" }.joined(separator: ", ")
        return UnknownFieldsHint.adding(
            to: "no entity has every field; the best fit is \(best.entity.name) (\(matched) of "
                + "\(fields.count) fields), where \(names) "
                + (best.unmatched.count == 1 ? "matches" : "match")
                + " no property (properties: \(best.entity.propertyNames)); give --entity "
                + "\(best.entity.name) with --map FIELD=property or --ignore-unknown",
            unknown: best.unmatched)
    }

    // MARK: - Transactions

    /// Runs the whole import: holds the store's lock shared, opens the
    /// first transaction, and commits (or rolls back) at the end.
    func runInTransactions(_ body: () throws -> Void) throws -> ImportSummary {
        let start = Date()
        summary.isDryRun = options.isDryRun
        let connection = store.connection
        connection.busyTimeout = options.lockTimeout
        try store.withSharedLock {
            writer = try ImportWriter(
                reader: RowReader(store, tables: mapping), isDryRun: options.isDryRun)
            defer { writer = nil }
            if !options.isDryRun { try begin() }
            do {
                try body()
                try resolvePendingLinks()
                if !options.isDryRun {
                    try checkWrittenReferences()
                    try finishTransaction()
                    try connection.commit()
                }
            } catch {
                connection.rollbackIgnoringErrors()
                throw error
            }
        }
        countInserts()
        summary.seconds = Date().timeIntervalSince(start)
        return summary
    }

    private func begin() throws {
        try store.connection.beginTransaction(.immediate)
        try store.checkVersionUnchanged(verified: &verifiedMetadata)
        if !hasStoredSchema {
            // A store written before stores kept their schema learns it now,
            // in the same commit as the records.
            try store.updateStoredSchema(to: model)
            hasStoredSchema = true
            verifiedMetadata = nil
        }
        recordsInTransaction = 0
    }

    /// What every commit writes besides the records: the keys handed out
    /// (`Z_PRIMARYKEY`), and one `Z_OPT` step for each object of the store
    /// that a record was linked to (its relationship changed).
    func finishTransaction() throws {
        guard let writer else { return }
        try writer.flushJoins()
        try writer.saveKeys()
        for plan in plans.values.sorted(by: { $0.name < $1.name })
        where !plan.linkedExistingKeys.isEmpty {
            try writer.raiseOptimisticLock(of: plan.linkedExistingKeys.sorted(), in: plan)
            plan.linkedExistingKeys = []
        }
    }

    /// Commits after every ``ImportOptions/commitInterval`` records when
    /// skipping bad records; with the abort policy the import is one
    /// transaction.
    func recordFinished() throws {
        summary.records += 1
        if summary.records & 4095 == 0 { reportProgress() }
        guard options.errorPolicy == .skip, !options.isDryRun else { return }
        recordsInTransaction += 1
        if recordsInTransaction >= options.commitInterval {
            try checkComputedFieldsSeen()
            try resolvePendingLinks()
            try finishTransaction()
            try store.connection.commit()
            try begin()
        }
    }

    var progressSource: (any ImportProgressSource)?

    func reportProgress() {
        guard let progress, let source = progressSource else { return }
        countInserts()
        progress(
            ImportProgress(
                records: summary.records, bytesRead: source.bytesRead,
                totalBytes: source.totalBytes))
    }

    /// Handles a bad record by the policy: rethrows it (abort), or counts
    /// it and hands it to the rejects writer (skip).
    func reject(_ error: ImportError, text: Data?, record: ImportRecord?) throws {
        guard options.errorPolicy == .skip else { throw error }
        summary.rejected += 1
        try rejects?.write(RejectedRecord(error: error, originalText: text, record: record))
    }

    /// Runs `body`, the writing of one record, in a savepoint when bad
    /// records are skipped: a record that fails leaves nothing in the store,
    /// and nothing in the run's bookkeeping either (counts, keys seen,
    /// objects found by `relatedBy`, links waiting for their object) — a
    /// cached key of a rolled-back row would link later records to nothing.
    func writingRecord(_ body: () throws -> Void) throws {
        guard options.errorPolicy == .skip, !options.isDryRun else { return try body() }
        let counts = plans.values.map { ($0, $0.insertedCount) }
        let pending = pendingLinks.count
        keysOfRecord.removeAll(keepingCapacity: true)
        do {
            try store.connection.inSavepoint { try body() }
        } catch {
            for plan in plans.values {
                // A plan made during the record had only rolled-back objects.
                plan.insertedCount = counts.first { $0.0 === plan }?.1 ?? 0
                plan.relatedObjects = [:]
            }
            for key in keysOfRecord { keyIndex[key] = nil }
            pendingLinks.removeSubrange(pending...)
            throw error
        }
    }

    func countInsert(_ plan: EntityImportPlan) {
        plan.insertedCount += 1
    }

    /// Folds the plans' counters into the summary.
    func countInserts() {
        summary.inserted = 0
        summary.insertedByEntity = [:]
        for plan in plans.values where plan.insertedCount > 0 {
            summary.inserted += plan.insertedCount
            summary.insertedByEntity[plan.name] = plan.insertedCount
        }
    }
}
