// MARK: - Filtering in memory

extension Context {
    /// The objects among `objects` that satisfy `predicate`, in their order
    /// (Core Data's `filteredArrayUsingPredicate`), with the same results a
    /// fetch with the predicate gives through SQL.
    ///
    /// ```swift
    /// let found = try context.filter(entries, with: Predicate("text CONTAINS[cd] %@",
    ///                                                        arguments: [.string("all")]))
    /// ```
    ///
    /// - Throws: ``PredicateError`` for a variable left unbound, a pattern
    ///   that does not compile, or a key an object does not have.
    public func filter(_ objects: [ManagedObject], with predicate: Predicate) throws
        -> [ManagedObject]
    {
        try objects.filter { try predicate.evaluate(with: $0) }
    }
}
