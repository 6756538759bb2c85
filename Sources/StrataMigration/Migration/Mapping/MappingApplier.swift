import Foundation
import StrataCore
import StrataQuery
import StrataSchema
import StrataStore

/// Runs a ``MigrationMapping`` between two open stores: the source at the
/// older version (read only) and the destination at the newer version,
/// already migrated in place by the inferred plan, so that kept objects have
/// the same primary keys on both sides.
///
/// Rules that drop objects run first, then the others, each in the
/// destination's entity numbering order. Every rule streams its source rows
/// in primary-key order; memory holds one row at a time, plus the key maps
/// of find-or-create rules (one entry per distinct key).
final class MappingApplier {
    let mapping: MigrationMapping
    let source: Connection
    let destination: Connection
    let sourceTables: StoreMapping
    let destinationTables: StoreMapping
    let sourceURL: URL
    let destinationURL: URL
    let evaluator = ExpressionEvaluator()
    /// The writer of the destination's rows (and keys).
    let rows: RowWriter
    /// The row layout of each destination entity written, by name.
    var layouts: [String: EntityRowLayout] = [:]
    let progress: ((_ entity: String, _ rows: Int64) -> Void)?
    /// Existing and created objects of find-or-create rules, by
    /// "Entity.key" then key value (compared as the store compares it).
    var lookups: [String: [AttributeValue: Int64]] = [:]
    /// The object each source object became, by the name of each rule that
    /// creates objects a link points at: source key → created key.
    var createdKeys: [String: [Int64: Int64]] = [:]
    /// The rules whose created objects are recorded in ``createdKeys``.
    var recordedCreators: Set<String> = []
    /// Links to created objects, by rule name: they run once every rule
    /// has created its objects (Core Data's second pass).
    var deferredLinks: [String: [DeferredLink]] = [:]
    /// The compiled rules of destination attributes that have any, by name.
    var checks: [String: [(attribute: Attribute, check: AttributeCheck?)]] = [:]

    /// How often, in rows, progress is reported within a rule.
    static let progressInterval: Int64 = 1000

    init(
        _ mapping: MigrationMapping, source: Connection, destination: Connection,
        progress: ((_ entity: String, _ rows: Int64) -> Void)?
    ) throws {
        self.mapping = mapping
        self.source = source
        self.destination = destination
        self.progress = progress
        sourceURL = URL(fileURLWithPath: source.path)
        destinationURL = URL(fileURLWithPath: destination.path)
        sourceTables = try StoreMapping(
            model: mapping.source, connection: source, path: source.path)
        destinationTables = try StoreMapping(
            model: mapping.destination, connection: destination, path: destination.path)
        rows = RowWriter(connection: destination)
    }

    package func run() throws {
        let dropping = mapping.entities.filter { $0.condition != nil && !$0.createsObjects }
        let others = mapping.entities.filter { $0.condition == nil || $0.createsObjects }
        recordedCreators = recordedCreatorRules()
        for rule in dropping + others { try apply(rule) }
        for rule in dropping + others {
            guard let links = deferredLinks[rule.name] else { continue }
            try applyDeferred(links, of: rule)
        }
        try rows.saveKeys()
    }

    /// How the destination's rows of `entity` are laid out.
    func layout(of entity: String) throws -> EntityRowLayout {
        if let known = layouts[entity] { return known }
        guard let tables = destinationTables.entity(named: entity) else {
            throw MigrationError(
                .storeFailure,
                message: "\(destination.path): no table for \(entity) in version "
                    + "\(mapping.destination.version)")
        }
        let layout = EntityRowLayout(entity: entity, model: mapping.destination, tables: tables)
        layouts[entity] = layout
        return layout
    }

    /// A fresh primary key for a new object of `entity` (its tree's counter).
    func newKey(for entity: String) throws -> Int64 {
        try rows.keyCounter(for: layout(of: entity)).next()
    }

    /// Inserts a new object of `layout` with key `key` and the values of
    /// its attribute columns, in the layout's order (its to-ones are set by
    /// the linkers).
    package func insert(_ key: Int64, _ values: [SQLiteValue], into layout: EntityRowLayout) throws
    {
        let statement = try rows.insertStatement(for: layout)
        try statement.bind(key, at: EntityRowLayout.keyParameter)
        for (column, value) in values.enumerated() {
            try statement.bind(value, at: EntityRowLayout.parameter(ofColumn: column))
        }
        try rows.write(statement)
    }

    /// A runtime error of an expression, naming the object it ran on.
    package func failure(
        _ error: ExpressionError, _ expression: MappingExpression, rule: MappedEntity,
        key: Int64
    ) -> MappingError {
        MappingError(issues: [
            MappingIssue(
                file: mapping.file, path: expression.path, expressionColumn: error.column,
                expression: expression.text,
                message: "\(error.message) (for \(rule.source) p\(key) of version "
                    + "\(mapping.source.version))")
        ])
    }

    /// The value of `attribute` for a new object that no expression sets: a
    /// concrete default (now, a fresh UUID, the literal), or nil.
    static func defaultValue(of attribute: Attribute) -> AttributeValue? {
        switch attribute.defaultValue {
        case nil: nil
        case .now: .date(Date().timeIntervalSinceReferenceDate)
        case .uuid: .uuid(UUID())
        case .literal(let value): value
        }
    }

    // MARK: - Deleting objects

    /// Deletes destination object `key` of the tree of `entity`, and clears
    /// every foreign key and join row that points at it (delete rules do not
    /// run: the object is dropped, not deleted by the app).
    func deleteObject(_ key: Int64, of entity: String) throws {
        let model = mapping.destination
        try rows.drop(
            key, ofTreeRootedAt: model.rootEntity(of: entity)?.name ?? entity, model: model,
            tables: destinationTables)
    }
}

extension MigrationMapping {
    /// Carries out the mapping's custom steps on a store that the inferred
    /// plan has already migrated in place.
    ///
    /// The caller copies the store, runs `MigrationPlan(from: source, to:
    /// destination).statements` on the copy (kept and renamed objects keep
    /// their primary keys; values the plan cannot compute are NULL), opens a
    /// transaction on the copy, calls this, checks the result and commits.
    /// This method opens no transaction of its own, so a failure leaves the
    /// rollback to the caller.
    ///
    /// For each entity rule, in order, each source object (in primary-key
    /// order) either updates the destination object with its key, or is
    /// dropped from the destination when it fails `where` (references to it
    /// are cleared), or creates a new object (a rule whose `source` is
    /// another entity). Attribute expressions fill their attributes;
    /// relationship rules replace the links the plan made.
    ///
    /// ```swift
    /// try copy.inTransaction {
    ///     try mapping.apply(source: original, destination: copy) { entity, rows in
    ///         print("\(entity): \(rows)")
    ///     }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - source: The store at version ``source`` (read only).
    ///   - destination: The copy at version ``destination``.
    ///   - progress: Called with the destination entity of the rule running
    ///     and the number of source rows it has handled, every 1000 rows and
    ///     when the rule ends.
    /// - Throws: ``MappingError`` for a value that does not fit its
    ///   attribute or breaks one of its rules (`maxLength`, `pattern`, …),
    ///   naming the object; ``StoreError`` when a store's tables
    ///   do not fit its version, ``SQLiteError`` when a statement fails.
    public func apply(
        source: Connection, destination: Connection,
        progress: ((_ entity: String, _ rows: Int64) -> Void)? = nil
    ) throws {
        try MappingApplier(self, source: source, destination: destination, progress: progress)
            .run()
    }
}
