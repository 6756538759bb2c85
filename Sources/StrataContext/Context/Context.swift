import Foundation
import StrataQuery
import StrataSchema
import StrataStore

/// The scratch paper of an object graph on one store: objects are inserted,
/// fetched, changed and deleted in memory, and ``save()`` writes all of it in
/// one transaction — or nothing, leaving the context as it was.
///
/// A context belongs to one thread or task (it is not `Sendable`). Several
/// contexts, in one process or several, may write the same store: each save
/// checks that the rows it overwrites are still the versions it read
/// (optimistic locking on `Z_OPT`), see ``mergePolicy``.
///
/// ```swift
/// let context = try Context(store: store, model: diary)
/// let entry = try context.insert("DiaryEntry")
/// try entry.set("title", "First day")
/// try context.save()
/// ```
public final class Context {
    /// The store the context reads and writes.
    public let store: Store
    /// The model version describing the store.
    public let model: Model
    /// Whether the context may save (see ``Access``).
    public let access: Access
    /// What a save does when another writer changed a row it overwrites.
    public var mergePolicy: MergePolicy = .error

    let mapping: StoreMapping
    /// The reader of the store's rows, laid out by the context's mapping;
    /// made once (a fetch uses it several times, and making one reads the
    /// store's path from its URL).
    package let rowReader: RowReader
    let descriptions: [String: EntityDescription]
    /// Entity names by the store's entity numbers.
    let namesByNumber: [Int: String]

    // The properties every insert or save touches per object opt out of
    // run-time exclusivity checks, as the objects' own do (see
    // ``ManagedObject``): a context is used from one thread, and none of
    // their accesses is nested in another (nothing called while one is open
    // reaches back into the context).

    /// Every saved object the context knows (one id, one object). Objects
    /// nobody else holds are swept out after saves (see ``ObjectRegistry``).
    @exclusivity(unchecked) package var registry = ObjectRegistry()
    /// Objects with unsaved changes, held strongly until saved or rolled back.
    @exclusivity(unchecked) var inserted = InsertedObjects()
    var updated: [ObjectID: ManagedObject] = [:]
    var deleted: [ObjectID: ManagedObject] = [:]
    @exclusivity(unchecked) var nextTemporaryKey: Int64 = -1
    var pendingChanges = ChangeSet()
    var observers: [ObserverToken: (event: ContextEvent, handler: (ChangeSet) -> Void)] = [:] {
        didSet {
            tracksPendingChanges = observers.values.contains { $0.event == .objectsDidChange }
        }
    }
    /// Whether `objectsDidChange` has observers; the pending change set is
    /// only kept for them (bulk inserts need not pay for it). Kept with
    /// ``observers`` rather than found per insert.
    private(set) var tracksPendingChanges = false
    var saveHooks: [String: (ManagedObject) -> String?] = [:]
    /// The link every object of this context holds (a constant: reading a
    /// lazy property costs a check per object made).
    let link = ContextLink()
    /// The live inserted objects, fixed once a save's delete rules have run
    /// (nothing after that point inserts or deletes), so the save's later
    /// phases do not each filter the insertion list again.
    var savingInserted: [ManagedObject]?
    /// The last entity looked up by name (bulk inserts name one entity).
    @exclusivity(unchecked) var lastDescription: EntityDescription?
    /// Non-nil while a save runs: the objects' states before it started.
    var saveJournal: SaveJournal? {
        didSet { link.isSaving = saveJournal != nil }
    }
    /// The fetch plans made so far, by request shape.
    var fetchPlans = FetchPlanCache()
    /// The store's metadata plist as the last save found it, still
    /// describing the version the store was opened at (see
    /// `Store.checkVersionUnchanged(verified:)`).
    var verifiedMetadata: Data?
    /// The first error a generated class's non-throwing accessor met since
    /// the last rollback (see ``TypedEntity``); every save throws it.
    var deferredError: (any Error)?
    /// The objects saves failed on with a `conflict` since the last
    /// successful save or rollback: ``rollback()`` re-reads their rows, so
    /// that a retry starts from what the other writer saved.
    var conflictedIDs: Set<ObjectID> = []
    /// What objects a generated class could not insert are made of.
    let detachedDescription: EntityDescription

    /// What a context may do with its store.
    public enum Access: Sendable {
        /// Read and save; the model's version hashes must be the store's.
        case readWrite
        /// Read only, with any model: properties the store's tables lack
        /// read as nil, and ``Context/save()`` throws (`readOnly`) rather
        /// than drop the values set on them. For looking into a store whose
        /// exact model is not at hand.
        case readOnlyBestEffort
    }

    /// A context on `store`, whose data `model` describes.
    ///
    /// - Parameters:
    ///   - access: ``Access/readWrite`` (the default) refuses a model whose
    ///     version hashes are not the store's: attributes its tables lack
    ///     would be dropped at save. ``Access/readOnlyBestEffort`` accepts
    ///     any model that fits the tables, and never saves.
    /// - Throws: ``ContextError`` (`modelMismatch`) naming the store's
    ///   version and the model's when their hashes differ (read-write only);
    ///   ``StoreError`` when the model does not fit the store's
    ///   tables; ``ContextError`` when a pattern in the model does not compile;
    ///   ``SQLiteError`` when the predicate functions cannot be registered.
    public convenience init(store: Store, model: Model, access: Access = .readWrite) throws {
        if access == .readWrite { try Context.checkHashes(of: store, match: model) }
        try self.init(unverified: store, model: model, access: access)
    }

    /// A context that trusts `model` to be the store's version: for a
    /// migration stage, whose destination gets its version hashes only when
    /// the stage ends.
    package init(unverified store: Store, model: Model, access: Access = .readWrite) throws {
        self.store = store
        self.model = model
        self.access = access
        self.mapping = try StoreMapping(model: model, store: store)
        self.rowReader = RowReader(store, tables: mapping)
        var numbers: [Int: String] = [:]
        for record in store.entityRecords { numbers[record.number] = record.name }
        self.namesByNumber = numbers
        var descriptions: [String: EntityDescription] = [:]
        for entity in model.entities {
            guard let entityMapping = mapping.entity(named: entity.name) else { continue }
            let root = model.rootEntity(of: entity.name)?.name ?? entity.name
            descriptions[entity.name] = try EntityDescription(
                entity: entity, model: model, mapping: entityMapping,
                rootNumber: mapping.entity(named: root)?.number ?? entityMapping.number)
        }
        self.descriptions = descriptions
        self.detachedDescription = try EntityDescription.detached()
        // Predicates with [c]/[d], LIKE, MATCHES and localized sorts call these.
        try PredicateSQLFunctions.register(on: store.connection)
        link.context = self
    }

    deinit {
        // The objects that outlive the context learn it without loading the
        // weak reference (see ``ContextLink/isAlive``).
        link.isAlive = false
    }

    /// Throws `modelMismatch` unless `model`'s version hashes are the
    /// store's.
    static func checkHashes(of store: Store, match model: Model) throws {
        guard let mismatch = store.versionMismatch(with: model) else { return }
        throw ContextError(
            .modelMismatch,
            "\(store.path): \(mismatch) (open the matching version, migrate the store, "
                + "or ask for a read-only best-effort context)")
    }

    /// The description of `entityName`, or `unknownEntity`.
    package func description(of entityName: String) throws -> EntityDescription {
        if let lastDescription, lastDescription.name == entityName { return lastDescription }
        guard let description = descriptions[entityName] else {
            let known = descriptions.keys.sorted().joined(separator: ", ")
            throw ContextError(
                .unknownEntity, "the model has no entity '\(entityName)' (entities: \(known))")
        }
        lastDescription = description
        return description
    }

    // MARK: - Inserting

    /// A new object of `entityName`, with its defaults applied (`"now"` for
    /// dates, `"uuid"` for UUIDs, literals), registered as inserted.
    ///
    /// - Throws: ``ContextError`` for an unknown or abstract entity.
    public func insert(_ entityName: String) throws -> ManagedObject {
        let description = try description(of: entityName)
        guard !description.isAbstract else {
            throw ContextError(
                .abstractEntity, "\(entityName) is abstract and cannot have instances")
        }
        // Without a generated class no seed is needed.
        let object =
            description.objectClass == ManagedObject.self
            ? ManagedObject(
                description, id: nextTemporaryID(description), link: link,
                state: description.insertionState())
            : description.objectClass.init(insertionSeed(description))
        didInsert(object)
        return object
    }

    /// The seed of a new object of `description`, with a fresh temporary id
    /// (the object gets its defaults as it is made).
    func insertionSeed(_ description: EntityDescription) -> ObjectSeed {
        ObjectSeed(
            id: nextTemporaryID(description), description: description, link: link, isNew: true)
    }

    /// A fresh temporary id for a new object of `description`.
    private func nextTemporaryID(_ description: EntityDescription) -> ObjectID {
        let id = ObjectID(entityName: description.name, key: nextTemporaryKey)
        nextTemporaryKey -= 1
        return id
    }

    /// Registers an object made from ``insertionSeed(_:)`` as inserted.
    @inline(__always)  // Once per object inserted.
    func didInsert(_ object: ManagedObject) {
        object.isInserted = true
        inserted.append(object)
        if tracksPendingChanges { pendingChanges.inserted.insert(object.objectID) }
    }

    // MARK: - Looking objects up

    /// The object with `id`: the registered one, or a fault read from the
    /// store.
    ///
    /// - Throws: ``ContextError`` (`objectNotFound`) when no row has the id,
    ///   (`unknownEntity`) when the entity is not in the model.
    public func object(with id: ObjectID) throws -> ManagedObject {
        if let object = registered(id) { return object }
        guard let key = id.primaryKey else {
            throw ContextError(
                .objectNotFound, "\(id) is a temporary id this context does not know", objects: [id]
            )
        }
        let description = try description(of: id.entityName)
        guard let object = try load(description, primaryKeys: [key]).first else {
            throw ContextError(.objectNotFound, "\(id) is not in the store", objects: [id])
        }
        return object
    }

    /// The registered object with `id`, if any: inserted ones by temporary
    /// id, every other one through the registry.
    func registered(_ id: ObjectID) -> ManagedObject? {
        // Inserted objects are found by their temporary id until saved.
        id.isTemporary ? inserted[id] : registry[id]
    }

    /// Checks that `object` belongs to this context.
    package func check(_ object: ManagedObject) throws {
        guard object.context === self, object.isRegistered else {
            throw ContextError(
                .foreignObject,
                "\(object.objectID) belongs to another context (or was forgotten by reset)",
                objects: [object.objectID])
        }
    }

    // MARK: - Changing

    /// Called before a property of `object` changes.
    func willChange(_ object: ManagedObject) throws {
        try check(object)
        journal(object)
    }

    /// Called after a property of `object` changed: it is now updated.
    func didChange(_ object: ManagedObject) {
        guard !object.isInserted, !object.isDeleted else { return }
        if updated[object.objectID] == nil {
            updated[object.objectID] = object
            if tracksPendingChanges { pendingChanges.updated.insert(object.objectID) }
        }
    }

    /// The objects inserted since the last save, in the order they were made.
    public var insertedObjects: [ManagedObject] { inserted.values }

    /// The saved objects changed since the last save.
    public var updatedObjects: [ManagedObject] {
        updated.values.filter { $0.state.hasChanges }.sorted { $0.objectID.key < $1.objectID.key }
    }

    /// The saved objects deleted since the last save.
    public var deletedObjects: [ManagedObject] {
        deleted.values.sorted { $0.objectID.key < $1.objectID.key }
    }

    /// Whether anything was inserted, updated or deleted since the last save.
    public var hasChanges: Bool {
        !inserted.isEmpty || !deleted.isEmpty || updated.values.contains { $0.state.hasChanges }
    }

    /// Marks `object` deleted; delete rules run at ``save()``.
    public func delete(_ object: ManagedObject) throws {
        try check(object)
        guard !object.isDeleted else { return }
        if object.isInserted {
            // Never saved: it simply disappears, with its relationships undone.
            try detach(object)
            pendingChanges.inserted.remove(object.objectID)
            object.isInserted = false
            object.isDeleted = true
            return
        }
        object.isDeleted = true
        updated[object.objectID] = nil
        deleted[object.objectID] = object
        pendingChanges.deleted.insert(object.objectID)
    }

    /// Discards every unsaved change: inserted objects vanish, deleted and
    /// updated ones return to their saved state.
    ///
    /// Objects a save failed on with ``ContextError`` `conflict` (since the
    /// last successful save) are then re-read from the store, as
    /// ``refresh(_:)`` does: they hold the other writer's values and version,
    /// so changing them again and saving succeeds; one whose row the other
    /// writer deleted becomes deleted and is forgotten. Should a re-read fail
    /// (a store error), that object keeps its saved state and the next
    /// rollback tries again; saving it meanwhile conflicts again, losing
    /// nothing.
    public func rollback() {
        // Taken before the change lists are emptied: an object whose only
        // change was a delete may be held by nothing else.
        let conflicted = conflictedIDs.compactMap { updated[$0] ?? deleted[$0] ?? registered($0) }
        conflictedIDs = []
        for object in inserted.values {
            object.isInserted = false
            object.isDeleted = true
            // Gone from the context: changing it now is an error, not a no-op.
            object.isRegistered = false
        }
        for object in Array(updated.values) + Array(deleted.values) {
            if let committed = object.committed { object.state = committed }
            object.isDeleted = false
        }
        // Relationship lists of unchanged objects may mention inserted ids.
        for object in registry.values where !object.hasChanges {
            object.unloadToManyRelationships()
        }
        inserted.removeAll(usedKeys: -nextTemporaryKey - 1)
        deferredError = nil
        updated = [:]
        deleted = [:]
        pendingChanges = ChangeSet()
        // A retry must start from the rows that made the save conflict, or it
        // conflicts again.
        for object in conflicted where object.isRegistered {
            do { try refresh(object) } catch { conflictedIDs.insert(object.objectID) }
        }
    }

    /// Forgets every object: unsaved changes are discarded and registered
    /// objects no longer belong to the context.
    public func reset() {
        conflictedIDs = []  // Forgotten anyway: nothing to re-read.
        rollback()
        registry.removeAll()
    }
}

extension ManagedObject {
    /// Turns loaded to-many relationships back into faults.
    func unloadToManyRelationships() {
        for index in state.toMany.indices where description_.relationships[index].isToMany {
            state.toMany[index] = nil
        }
    }
}
