import StrataQuery

// MARK: - Filtering in memory

extension Context {
    /// The objects among `objects` that satisfy `predicate`, in their order
    /// (Core Data's `filteredArrayUsingPredicate`), with the same results a
    /// fetch with the predicate gives through SQL.
    ///
    /// ```swift
    /// let found = try context.filter(entries, with: FetchPredicate("body CONTAINS[cd] %@", "all"))
    /// ```
    ///
    /// The predicate is first checked against the entity of every object
    /// (``FetchPredicate/check(entity:model:format:)``), so a predicate that does
    /// not fit the model fails before any object is looked at.
    ///
    /// - Throws: ``FetchPredicateError`` for a key the entity does not have, a type
    ///   mismatch, a variable left unbound, or a pattern that does not compile.
    public func filter(_ objects: [ManagedObject], with predicate: FetchPredicate) throws
        -> [ManagedObject]
    {
        var checked: Set<String> = []
        for object in objects where checked.insert(object.entityName).inserted {
            try predicate.check(entity: object.entityName, model: model)
        }
        return try objects.filter { try predicate.evaluate(with: $0) }
    }
}
