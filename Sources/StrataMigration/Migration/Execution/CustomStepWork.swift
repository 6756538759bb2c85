import StrataContext
import StrataQuery
import StrataSchema
import StrataStore

/// What a ``CustomMigrationStep`` works on: the store at the older version
/// (read only) and a work copy at the newer version, each through a context.
///
/// Memory stays bounded however many objects there are:
/// ``forEachSourceObject(of:predicate:_:)`` reads the source in batches and
/// saves and resets the destination after each one.
public final class CustomStepWork {
    /// The store at the older version, read only.
    public let source: Context
    /// The work copy at the newer version.
    public let destination: Context
    /// The source's model version.
    public let sourceModel: Model
    /// The destination's model version.
    public let destinationModel: Model
    /// Objects handled between two saves of the destination.
    public let batchSize: Int
    /// The plan between the two versions, for its correspondence of names.
    let plan: MigrationPlan
    /// Called with the entity and the objects done so far.
    let progress: (String, Int64) -> Void

    init(
        source: Context, destination: Context, plan: MigrationPlan, batchSize: Int,
        progress: @escaping (String, Int64) -> Void
    ) {
        self.source = source
        self.destination = destination
        self.sourceModel = plan.source
        self.destinationModel = plan.destination
        self.plan = plan
        self.batchSize = max(batchSize, 1)
        self.progress = progress
    }

    /// Calls `body` with every source object of `entity` (and its
    /// subentities) and its counterpart in the destination: the object with
    /// the same primary key of the entity that continues it there, or nil
    /// when the newer version has no such entity or the object is gone.
    ///
    /// The destination is saved after every ``batchSize`` objects and at the
    /// end; both contexts are then reset, so `body` must not keep objects
    /// across calls.
    ///
    /// - Parameters:
    ///   - entity: A source entity name.
    ///   - predicate: Only source objects matching it, when given.
    ///   - body: The work for one object.
    /// - Throws: What the fetch, a save or `body` throws.
    public func forEachSourceObject(
        of entity: String, predicate: FetchPredicate? = nil,
        _ body: (ManagedObject, ManagedObject?) throws -> Void
    ) throws {
        let newerNames = Dictionary(
            plan.correspondence.entities.map { ($0.value, $0.key) }
        ) { first, _ in first }
        var done: Int64 = 0
        var batch: [ManagedObject] = []
        // One batch: its counterparts read in one transaction (not one lock
        // per object), then `body` for each, then one save.
        func finishBatch() throws {
            guard !batch.isEmpty else { return }
            let counterparts = try counterparts(of: batch, newerNames: newerNames)
            for object in batch {
                try body(object, counterparts[object.objectID])
            }
            done += Int64(batch.count)
            batch.removeAll(keepingCapacity: true)
            try destination.save()
            destination.reset()
            progress(entity, done)
        }
        var request = FetchRequest(entity: entity, predicate: predicate)
        request.sortDescriptors = []
        try source.forEach(request, batchSize: batchSize) { object in
            batch.append(object)
            if batch.count >= batchSize { try finishBatch() }
        }
        try finishBatch()
    }

    /// The destination objects with the keys of `objects`, by source id;
    /// objects whose entity or row the newer version dropped have none.
    private func counterparts(
        of objects: [ManagedObject], newerNames: [String: String]
    ) throws -> [ObjectID: ManagedObject] {
        var keys: [String: [(ObjectID, Int64)]] = [:]
        for object in objects {
            guard let newer = newerNames[object.objectID.entityName],
                let key = object.objectID.primaryKey
            else { continue }
            keys[newer, default: []].append((object.objectID, key))
        }
        var found: [ObjectID: ManagedObject] = [:]
        try destination.store.connection.inTransaction(.deferred) {
            for (newer, pairs) in keys {
                let loaded = try destination.load(
                    try destination.description(of: newer), primaryKeys: pairs.map(\.1))
                let byKey = Dictionary(
                    loaded.compactMap { object in object.objectID.primaryKey.map { ($0, object) } }
                ) { first, _ in first }
                for (id, key) in pairs {
                    found[id] = byKey[key]
                }
            }
        }
        return found
    }
}
