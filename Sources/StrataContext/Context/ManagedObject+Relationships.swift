import StrataStore

// MARK: - Relationships

extension ManagedObject {
    private func owningContext() throws -> Context {
        guard let context else {
            throw ContextError(
                .foreignObject, "\(objectID) no longer belongs to a context", objects: [objectID])
        }
        return context
    }

    /// The destination of to-one relationship `key`, nil when empty (or,
    /// for a relationship without an inverse, when its destination is gone).
    public func object(forKey key: String) throws -> ManagedObject? {
        let context = try owningContext()
        let index = try description_.relationship(key)
        guard !description_.relationships[index].isToMany else {
            throw ContextError(
                .wrongPropertyKind, "\(entityName).\(key) is to-many; use objects(forKey:)")
        }
        guard let id = state.toOne[index] else { return nil }
        guard !description_.relationships[index].hasInverse else {
            return try context.object(with: id)
        }
        // Without an inverse, deleting the destination leaves the key (as in
        // Core Data): a key that points at no row, or at a deleted object,
        // reads as nil.
        do {
            let destination = try context.object(with: id)
            return destination.isDeleted ? nil : destination
        } catch let error as ContextError where error.code == .objectNotFound {
            return nil
        }
    }

    /// The destination of to-one relationship `key`, nil when empty (the
    /// same as ``object(forKey:)``, the one spelling kept).
    @available(*, deprecated, renamed: "object(forKey:)")
    public func object(_ key: String) throws -> ManagedObject? {
        try object(forKey: key)
    }

    /// The destinations of to-many relationship `key`, in order (the same as
    /// ``objects(forKey:)``, the one spelling kept).
    @available(*, deprecated, renamed: "objects(forKey:)")
    public func objects(_ key: String) throws -> [ManagedObject] {
        try objects(forKey: key)
    }

    /// Sets to-one relationship `key`; the inverse follows at once. (The
    /// same as `set(_:_:)` with an object, which also clears attributes.)
    public func setObject(_ destination: ManagedObject?, forKey key: String) throws {
        let context = try owningContext()
        let index = try description_.relationship(key)
        guard !description_.relationships[index].isToMany else {
            throw ContextError(
                .wrongPropertyKind, "\(entityName).\(key) is to-many; use add(_:to:)")
        }
        if let destination {
            try context.link(self, index, destination)
        } else if let current = try object(forKey: key) {
            try context.unlink(self, index, current)
        } else if state.toOne[index] != nil {
            try context.clearKey(of: self, index)  // A key to a destination that is gone.
        }
    }

    /// The ids of the destinations of to-many relationship `key`, in order.
    public func objectIDs(forKey key: String) throws -> [ObjectID] {
        let context = try owningContext()
        let index = try description_.relationship(key)
        guard description_.relationships[index].isToMany else {
            throw ContextError(
                .wrongPropertyKind, "\(entityName).\(key) is to-one; use object(forKey:)")
        }
        let ids = try context.toManyIDs(of: self, index)
        // Without an inverse, a deleted destination is still listed until
        // the save drops its join row; it reads as absent at once.
        guard !description_.relationships[index].hasInverse else { return ids }
        return ids.filter { context.registered($0)?.isDeleted != true }
    }

    /// The destinations of to-many relationship `key`, in order (the stored
    /// order for an ordered relationship).
    public func objects(forKey key: String) throws -> [ManagedObject] {
        let context = try owningContext()
        return try objectIDs(forKey: key).map { try context.object(with: $0) }
    }

    /// Adds `destination` to to-many relationship `key` (at the end of an
    /// ordered one); the inverse follows at once.
    public func add(_ destination: ManagedObject, to key: String) throws {
        let index = try toManyIndex(key)
        try owningContext().link(self, index, destination)
    }

    /// Inserts `destination` into ordered relationship `key` at `position`,
    /// moving it there if it is already a member.
    public func insert(_ destination: ManagedObject, into key: String, at position: Int) throws {
        let index = try toManyIndex(key)
        guard description_.relationships[index].isOrdered else {
            throw ContextError(.wrongPropertyKind, "\(entityName).\(key) is not ordered")
        }
        try owningContext().link(self, index, destination, at: max(0, position))
    }

    /// Removes `destination` from to-many relationship `key`.
    public func remove(_ destination: ManagedObject, from key: String) throws {
        let index = try toManyIndex(key)
        try owningContext().unlink(self, index, destination)
    }

    private func toManyIndex(_ key: String) throws -> Int {
        let index = try description_.relationship(key)
        guard description_.relationships[index].isToMany else {
            throw ContextError(
                .wrongPropertyKind, "\(entityName).\(key) is to-one; use setObject(_:forKey:)")
        }
        return index
    }
}
