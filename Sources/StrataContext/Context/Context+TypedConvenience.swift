import StrataQuery

// MARK: - Convenience for generated classes, as for entity names

extension Context {
    /// Every object of `type` (and its subclasses), sorted by `descriptors`
    /// when given (a key alone sorts ascending), unsaved changes included.
    ///
    /// ```swift
    /// let newestFirst = try context.findAll(
    ///     DiaryEntry.self, sortedBy: .descending("creationTime"))
    /// ```
    ///
    /// - Throws: as ``fetch(_:_:)``.
    public func findAll<T: TypedEntity>(_ type: T.Type, sortedBy descriptors: SortDescriptor...)
        throws -> [T]
    {
        var request = T.fetchRequest()
        request.sortDescriptors = descriptors
        return try fetch(type, request)
    }

    /// The first object of `type` whose attributes equal plain Swift
    /// values (every object when `conditions` is empty), in the order of
    /// `descriptors` (primary-key order without them).
    ///
    /// ```swift
    /// let home = try context.findFirst(Tag.self, where: ["name": "Home"])
    /// let newest = try context.findFirst(
    ///     DiaryEntry.self, sortedBy: .descending("creationTime"))
    /// ```
    ///
    /// - Throws: as ``fetch(_:_:)``.
    public func findFirst<T: TypedEntity>(
        _ type: T.Type, where conditions: [String: any AttributeValueConvertible] = [:],
        sortedBy descriptors: SortDescriptor...
    ) throws -> T? {
        var request = T.fetchRequest()
        request.conditions = conditions.mapValues { Optional($0.attributeValue) }
        request.sortDescriptors = descriptors
        request.fetchLimit = 1
        return try fetch(type, request).first
    }

    /// The first object of `type` matching a predicate whose arguments are
    /// plain Swift values, in the order of `descriptors` (primary-key order
    /// without them), unsaved changes included.
    ///
    /// ```swift
    /// let entry = try context.findFirst(DiaryEntry.self, where: "title == %@", "Paris")
    /// ```
    ///
    /// - Throws: ``PredicateSyntaxError`` for text that does not parse;
    ///   otherwise as ``fetch(_:_:)``.
    public func findFirst<T: TypedEntity>(
        _ type: T.Type, where format: String, _ arguments: any PredicateArgumentConvertible...,
        sortedBy descriptors: SortDescriptor...
    ) throws -> T? {
        var request = try T.fetchRequest(where: format, arguments)
        request.sortDescriptors = descriptors
        request.fetchLimit = 1
        return try fetch(type, request).first
    }

    /// The number of objects of `type` (and its subclasses), narrowed by a
    /// predicate when given, unsaved changes included.
    ///
    /// ```swift
    /// let all = try context.count(DiaryEntry.self)
    /// let long = try context.count(DiaryEntry.self, where: "wordCount > %@", 100)
    /// ```
    ///
    /// - Throws: ``PredicateSyntaxError`` for text that does not parse;
    ///   otherwise as ``fetch(_:_:)``.
    public func count<T: TypedEntity>(
        _ type: T.Type, where format: String? = nil,
        _ arguments: any PredicateArgumentConvertible...
    ) throws -> Int {
        try count(T.fetchRequest(where: format, arguments))
    }
}
