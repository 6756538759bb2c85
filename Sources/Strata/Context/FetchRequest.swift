/// What to fetch: objects of an entity matching a predicate (and equality
/// conditions), sorted, limited.
///
/// ```swift
/// var request = FetchRequest(entity: "DiaryEntry")
/// request.predicate = try Predicate("text CONTAINS[cd] %@", arguments: [.string("all")])
/// request.sortDescriptors = [SortDescriptor("creationTime", ascending: false)]
/// request.fetchLimit = 30
/// let entries = try context.fetch(request)
/// ```
public struct FetchRequest: Sendable {
    /// The entity's name.
    public var entityName: String
    /// The condition objects must meet; nil for every object. Checked
    /// against the model before anything runs.
    public var predicate: Predicate?
    /// Attribute values the objects must have (`nil` meaning no value); all
    /// must hold, together with ``predicate``.
    public var conditions: [String: AttributeValue?] = [:]
    /// Sort keys, most significant first; by primary key when empty.
    public var sortDescriptors: [SortDescriptor] = []
    /// At most this many objects; 0 means no limit.
    public var fetchLimit = 0
    /// Skip this many objects first.
    public var fetchOffset = 0
    /// Whether objects of subentities are included (default true).
    public var includesSubentities = true

    /// A request for every object of `entity` (matching `predicate`).
    public init(entity: String, predicate: Predicate? = nil) {
        self.entityName = entity
        self.predicate = predicate
    }
}

/// One sort key of a fetch.
public struct SortDescriptor: Hashable, Sendable {
    /// How strings are ordered.
    public enum StringComparison: Hashable, Sendable {
        /// By their UTF-8 bytes (SQLite's `BINARY`), the default.
        case binary
        /// By their `[c]`-folded form, as Core Data's `caseInsensitiveCompare:`.
        case caseInsensitive
        /// By the current locale's collation, as `localizedCompare:`.
        case localized
    }

    /// The attribute to sort by: a key or a key path through to-one
    /// relationships (`diaryEntry.creationTime`).
    public var key: String
    /// Whether smaller values come first. Nil values sort first when
    /// ascending, as in SQLite.
    public var ascending: Bool
    /// How string values compare; other values ignore it.
    public var comparison: StringComparison

    /// A sort key.
    public init(_ key: String, ascending: Bool = true, comparison: StringComparison = .binary) {
        self.key = key
        self.ascending = ascending
        self.comparison = comparison
    }
}
