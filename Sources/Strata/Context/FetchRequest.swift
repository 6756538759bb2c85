/// What to fetch: objects of an entity matching equality conditions, sorted,
/// limited.
///
/// ```swift
/// var request = FetchRequest(entity: "Note")
/// request.sortDescriptors = [SortDescriptor("date", ascending: false)]
/// request.fetchLimit = 30
/// let notes = try context.fetch(request)
/// ```
public struct FetchRequest: Sendable {
    /// The entity's name.
    public var entityName: String
    /// Attribute values the objects must have (`nil` meaning no value); all
    /// must hold.
    public var conditions: [String: AttributeValue?] = [:]
    /// Sort keys, most significant first; by primary key when empty.
    public var sortDescriptors: [SortDescriptor] = []
    /// At most this many objects; 0 means no limit.
    public var fetchLimit = 0
    /// Skip this many objects first.
    public var fetchOffset = 0
    /// Whether objects of subentities are included (default true).
    public var includesSubentities = true

    /// A request for every object of `entity`.
    public init(entity: String) {
        self.entityName = entity
    }
}

/// One sort key of a fetch.
public struct SortDescriptor: Hashable, Sendable {
    /// The attribute to sort by.
    public var key: String
    /// Whether smaller values come first. Nil values sort first when
    /// ascending, as in SQLite.
    public var ascending: Bool

    /// A sort key.
    public init(_ key: String, ascending: Bool = true) {
        self.key = key
        self.ascending = ascending
    }
}
