import StrataQuery
import StrataSchema

// MARK: - Convenience, as MagicalRecord apps use it

extension Context {
    /// Every object of `entityName`, sorted by `key` when given.
    public func findAll(_ entityName: String, sortedBy key: String? = nil, ascending: Bool = true)
        throws
        -> [ManagedObject]
    {
        var request = FetchRequest(entity: entityName)
        if let key { request.sortDescriptors = [SortDescriptor(key, ascending: ascending)] }
        return try fetch(request)
    }

    /// The first object of `entityName` whose attributes equal `conditions`.
    public func findFirst(_ entityName: String, where conditions: [String: AttributeValue?] = [:])
        throws
        -> ManagedObject?
    {
        var request = FetchRequest(entity: entityName)
        request.conditions = conditions
        request.fetchLimit = 1
        return try fetch(request).first
    }

    /// The first object of `entityName` whose attributes equal plain Swift
    /// values.
    ///
    /// ```swift
    /// let home = try context.findFirst("Tag", where: ["name": "Home"])
    /// ```
    public func findFirst(
        _ entityName: String, where conditions: [String: any AttributeValueConvertible]
    ) throws -> ManagedObject? {
        try findFirst(entityName, where: conditions.mapValues { Optional($0.attributeValue) })
    }

    /// The first object of `entityName` matching a predicate, in primary-key
    /// order, unsaved changes included; the arguments are plain Swift values
    /// (`"Paris"`, `3`, `Date()`, an object).
    ///
    /// ```swift
    /// let entry = try context.findFirst("DiaryEntry", where: "body CONTAINS[cd] %@", "river")
    /// ```
    ///
    /// - Throws: ``PredicateSyntaxError`` for text that does not parse,
    ///   ``FetchPredicateError`` (quoting `format`) for a predicate that does not
    ///   fit the entity.
    public func findFirst(
        _ entityName: String, where format: String,
        _ arguments: any PredicateArgumentConvertible...
    ) throws -> ManagedObject? {
        var request = try FetchRequest(entity: entityName, where: format, arguments)
        request.fetchLimit = 1
        return try fetch(request).first
    }

    /// The objects of `entityName` matching a predicate, sorted by `key`
    /// when given, unsaved changes included; the arguments are plain Swift
    /// values.
    ///
    /// ```swift
    /// let trips = try context.fetch(
    ///     "DiaryEntry", where: "title BEGINSWITH %@", "Trip", sortedBy: "creationTime")
    /// ```
    ///
    /// - Throws: as ``findFirst(_:where:_:)``.
    public func fetch(
        _ entityName: String, where format: String,
        _ arguments: any PredicateArgumentConvertible..., sortedBy key: String? = nil,
        ascending: Bool = true
    ) throws -> [ManagedObject] {
        var request = try FetchRequest(entity: entityName, where: format, arguments)
        if let key { request.sortDescriptors = [SortDescriptor(key, ascending: ascending)] }
        return try fetch(request)
    }

    /// The number of objects of `entityName`, unsaved changes included.
    public func count(_ entityName: String) throws -> Int {
        try count(FetchRequest(entity: entityName))
    }

    /// A new object of `entityName` (the same as ``insert(_:)``, the one
    /// spelling kept).
    @available(*, deprecated, renamed: "insert(_:)")
    public func create(_ entityName: String) throws -> ManagedObject {
        try insert(entityName)
    }
}
