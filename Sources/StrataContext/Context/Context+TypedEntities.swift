import Foundation
import StrataQuery
import StrataStore

// MARK: - Generated classes

extension Context {
    /// Makes the context hand out instances of `model`'s generated classes
    /// for their entities, from now on (inserted, fetched and related
    /// objects alike). Registering the same model again does nothing.
    ///
    /// Objects the context made before stay plain ``ManagedObject``s: a
    /// typed fetch that meets one throws, so register before any untyped
    /// fetch on a context that mixes both styles.
    ///
    /// - Throws: ``ContextError`` (`unknownEntity`) when the context's model
    ///   lacks an entity of `model`, (`modelMismatch`) when an entity's
    ///   version hash differs (the classes were generated from another
    ///   version), (`invalidSchema`) when another class is already
    ///   registered for an entity.
    public func register(_ model: any TypedModel.Type) throws {
        let classes = model.entityClasses
        let origin = "classes generated from \(model.name) version \(model.version)"
        let here = "the context's model (\(self.model.name) version \(self.model.version))"
        let missing = classes.map { $0.entityName }.filter { descriptions[$0] == nil }
        guard missing.isEmpty else {
            throw ContextError(
                .unknownEntity,
                "\(here) has no entity \(missing.joined(separator: ", ")), which the \(origin) "
                    + "expect (generate them from the store's version, or migrate the store)")
        }
        var found: [(EntityDescription, ManagedObject.Type)] = []
        for type in classes {
            let name = type.entityName
            guard let description = descriptions[name] else { continue }
            let hash = self.model.versionHash(ofEntity: name).map { Data($0).base64EncodedString() }
            guard hash == model.versionHashes[name] else {
                throw ContextError(
                    .modelMismatch,
                    "\(name) in \(here) is not the \(name) of the \(origin) "
                        + "(generate them from the store's version, or migrate the store)")
            }
            let current = description.objectClass
            guard description.hasClass(ManagedObject.self) || description.hasClass(type) else {
                throw ContextError(
                    .invalidSchema, "\(name) already has the class \(current) in this context")
            }
            found.append((description, type))
        }
        for (description, type) in found { description.objectClass = type }
    }

    /// The seed of a new object of `type` for ``TypedEntity/init(context:)``,
    /// registering the class's model first. When that or the insertion
    /// fails, the error waits for the next save and the seed makes an
    /// object that belongs to no context.
    func typedInsertionSeed<T: TypedEntity>(for type: T.Type) -> ObjectSeed {
        // The usual case, once per object of a bulk insert: the entity of
        // the last insert, its class registered (no name compared).
        if let description = lastDescription,
            ObjectIdentifier(description.objectClass) == ObjectIdentifier(type),
            !description.isAbstract
        {
            return insertionSeed(description)
        }
        do {
            let description = try self.description(of: T.entityName)
            if !description.hasClass(type) { try register(T.model) }
            guard !description.isAbstract else {
                throw ContextError(
                    .abstractEntity,
                    "\(T.entityName) is abstract: \(type)(context:) made no object")
            }
            return insertionSeed(description)
        } catch {
            deferError(error)
            var seed = ObjectSeed(
                id: ObjectID(entityName: T.entityName, key: 0), description: detachedDescription,
                link: ContextLink(), isNew: true)
            seed.isRegistered = false
            return seed
        }
    }

    /// Keeps the first error a non-throwing generated accessor met; every
    /// ``save()`` throws it until ``rollback()``.
    func deferError(_ error: any Error) {
        if deferredError == nil { deferredError = error }
    }

    /// The objects of `type` (and its subclasses) matching the predicate
    /// `format`, whose arguments are plain Swift values, sorted by
    /// `descriptors` (a key alone sorts ascending), unsaved changes
    /// included.
    ///
    /// ```swift
    /// let entries = try context.fetch(
    ///     DiaryEntry.self, where: "body CONTAINS[cd] %@", "paris",
    ///     sortedBy: "creationTime")
    /// let newestFirst = try context.fetch(
    ///     DiaryEntry.self, sortedBy: .descending("creationTime"))
    /// ```
    ///
    /// - Throws: as ``register(_:)`` and ``fetch(_:)``.
    public func fetch<T: TypedEntity>(
        _ type: T.Type, where format: String? = nil,
        _ arguments: any PredicateArgumentConvertible..., sortedBy descriptors: SortDescriptor...
    ) throws -> [T] {
        var request = try T.fetchRequest(where: format, arguments)
        request.sortDescriptors = descriptors
        return try fetch(type, request)
    }

    /// The objects `request` matches, as instances of `type`.
    ///
    /// - Throws: as ``register(_:)`` and ``fetch(_:)``; ``ContextError``
    ///   (`wrongType`) when a match is not a `type` (its entity is not
    ///   `type`'s, or the context made it before registering the classes).
    public func fetch<T: TypedEntity>(_ type: T.Type, _ request: FetchRequest) throws -> [T] {
        let description = try self.description(of: T.entityName)
        if !description.hasClass(type) { try register(T.model) }
        let objects = try fetch(request)
        var typed: [T] = []
        typed.reserveCapacity(objects.count)
        for object in objects {
            guard let match = object as? T else {
                throw ContextError(
                    .wrongType,
                    "\(object.objectID) is a \(Swift.type(of: object)), not a \(T.self) "
                        + "(its entity is not \(T.entityName)'s, or the context made it before "
                        + "registering \(T.model.name)'s classes: register them first)",
                    objects: [object.objectID])
            }
            typed.append(match)
        }
        return typed
    }
}
