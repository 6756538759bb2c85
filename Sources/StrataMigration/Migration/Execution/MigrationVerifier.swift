import StrataCore
import StrataSchema
import StrataStore

/// The checks run inside a stage's transaction, before its commit, on what
/// the stage touched: every reference between rows that involves a touched
/// table (``Store/checkRelationships(model:tables:)``: foreign keys to
/// existing rows of the right entity, one-to-one back-pointers, join rows,
/// `Z_ENT` and `Z_MAX`), and required values present in the touched columns.
///
/// What a stage did not touch is not scanned, so a stage that only adds a
/// nullable column (`ALTER TABLE … ADD COLUMN`) stays constant-time.
struct MigrationVerifier {
    let store: Store
    let model: Model
    /// Whether required attributes and to-ones must hold values; off for
    /// ``MigrationOptions/asCoreData``, where they stay empty as Core Data
    /// leaves them.
    var checksRequiredValues = true

    /// The tables and columns a stage touched.
    struct Scope {
        /// Tables whose rows the stage wrote (rebuilt, created, updated).
        var tables: Set<String>
        /// Per entity of the newer version, the properties whose values the
        /// stage may have left nil; nil means every property (a mapping or a
        /// custom step may have written anything).
        var properties: [String: Set<String>]?
    }

    /// The scope of an in-place stage: tables whose changes write rows, and
    /// the properties whose steps can leave a value missing. Tables that only
    /// gain nullable columns or indexes are left out: no row of theirs
    /// changed.
    static func scope(ofInPlace plan: MigrationPlan) -> Scope {
        let tables = plan.tableChanges.filter(\.writesRows).map(\.table)
        var properties: [String: Set<String>] = [:]
        for step in plan.steps where canLeaveValueMissing(step, in: plan.destination) {
            guard let property = step.property else { continue }
            properties[step.entity, default: []].insert(property)
        }
        return Scope(tables: Set(tables), properties: properties)
    }

    /// Whether the SQL of `step` can leave a value of its property nil
    /// where the newer version requires one. A rename or a widening copies
    /// every value as it was (a value that was missing before stays so, as
    /// it was before the stage; a property that also becomes required has a
    /// make-required step of its own); an added or newly required attribute
    /// with a default is filled with it; removals, indexes, order and
    /// version hashes change no value. Every other step is checked.
    static func canLeaveValueMissing(_ step: MigrationStep, in model: Model) -> Bool {
        switch step.kind {
        case .renameAttribute, .renameRelationship, .widenType, .makeOptional,
            .removeAttribute, .removeRelationship, .addIndex, .removeIndex,
            .addUniquenessConstraint, .removeUniquenessConstraint, .makeOrdered,
            .makeUnordered, .changeVersionHash:
            return false
        case .addAttribute, .makeRequired:
            guard let name = step.property,
                let attribute = model.allAttributes(of: step.entity).first(where: {
                    $0.name == name
                })
            else { return true }
            return attribute.defaultValue == nil
        default:
            return true
        }
    }

    /// Throws ``MigrationError`` (`verificationFailed`) listing up to ten
    /// problems when the stage left any.
    package func verify(_ scope: Scope, stage: String) throws {
        try store.reloadBookkeeping()
        guard !scope.tables.isEmpty else { return }
        var problems = try store.checkRelationships(model: model, tables: scope.tables)
            .map(\.description)
        if checksRequiredValues { problems += try missingRequiredValues(in: scope) }
        guard problems.isEmpty else {
            let shown = problems.prefix(10).joined(separator: "\n  ")
            let more = problems.count > 10 ? "\n  … and \(problems.count - 10) more" : ""
            throw MigrationError(
                .verificationFailed,
                message: "stage \(stage) was rolled back; its result failed the checks:\n  "
                    + shown + more)
        }
    }

    /// `Entity.property: N objects have no value, but version V requires one
    /// (Entity p4, Entity p9, …)`, naming the first few objects, for the
    /// required attributes and to-one relationships in `scope`.
    private func missingRequiredValues(in scope: Scope) throws -> [String] {
        let tables = scope.tables
        func inScope(_ entity: String, _ property: String) -> Bool {
            guard let properties = scope.properties else { return true }
            // Inherited properties are named by the entity that declares them.
            return properties[entity]?.contains(property) == true
                || model.ancestors(of: entity).contains {
                    properties[$0.name]?.contains(property) == true
                }
        }
        let mapping = try StoreMapping(model: model, store: store)
        let reader = RowReader(store, tables: mapping)
        var problems: [String] = []
        for entity in model.entities where !entity.isAbstract {
            guard let place = mapping.entities[entity.name], tables.contains(place.table) else {
                continue
            }
            var required: [RowColumnName] = []
            for attribute in model.allAttributes(of: entity.name)
            where !attribute.isOptional && !attribute.isTransient
                && inScope(entity.name, attribute.name)
            {
                if place.attributeColumns[attribute.name] != nil {
                    required.append(.attribute(attribute.name))
                }
            }
            for relationship in model.allRelationships(of: entity.name)
            where !relationship.isOptional && !relationship.isToMany && !relationship.isTransient
                && inScope(entity.name, relationship.name)
            {
                if place.toOne[relationship.name] != nil {
                    required.append(.toOne(relationship.name))
                }
            }
            guard !required.isEmpty else { continue }
            // One scan counts the NULLs of every required column at once.
            var query = RowQuery(entity.name, required.map { .nullCount($0) })
            query.entities = .exactly
            query.inKeyOrder = false
            var counts: [Int64] = []
            try reader.forEachRow(query) { row in
                counts = (0..<Int32(required.count)).map { row.int64(at: $0) }
            }
            for (column, missing) in zip(required, counts) where missing > 0 {
                let name = column.property
                let keys = try firstKeys(
                    of: entity.name, where: column, limit: Self.namedObjects, reader
                ).map { "\(entity.name) p\($0)" }
                let more = missing > Int64(keys.count) ? ", …" : ""
                problems.append(
                    "\(entity.name).\(name): \(missing) objects have no value, "
                        + "but version \(model.version) requires one "
                        + "(\(keys.joined(separator: ", "))\(more))")
            }
        }
        return problems
    }

    /// How many objects a missing-value problem names.
    static let namedObjects = 3

    /// The smallest primary keys of `entity`'s own objects whose `column`
    /// is NULL, at most `limit`.
    private func firstKeys(
        of entity: String, where column: RowColumnName, limit: Int, _ reader: RowReader
    ) throws -> [Int64] {
        var query = RowQuery(entity, [.key])
        query.entities = .exactly
        query.filters = [.isNull(column)]
        query.limit = limit
        var keys: [Int64] = []
        try reader.forEachRow(query) { row in keys.append(row.int64(at: 0)) }
        return keys
    }
}
