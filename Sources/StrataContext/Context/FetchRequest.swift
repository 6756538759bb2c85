import StrataQuery
import StrataSchema

/// What to fetch: objects of an entity matching a predicate (and equality
/// conditions), sorted, limited.
///
/// ```swift
/// var request = try FetchRequest(entity: "DiaryEntry", where: "body CONTAINS[cd] %@", "all")
/// request.sortDescriptors = [SortDescriptor("creationTime", ascending: false)]
/// request.fetchLimit = 30
/// let entries = try context.fetch(request)
/// ```
public struct FetchRequest: Sendable {
    /// The entity's name.
    public var entityName: String
    /// The condition objects must meet; nil for every object. Checked
    /// against the model before anything runs.
    public var predicate: FetchPredicate? {
        get { storedPredicate }
        set {
            storedPredicate = newValue
            predicateFormat = nil
        }
    }
    private var storedPredicate: FetchPredicate?
    /// The text ``predicate`` was parsed from, when the request was made
    /// from text (``init(entity:where:_:)``); errors quote it. Setting
    /// ``predicate`` clears it.
    public private(set) var predicateFormat: String?
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
    /// Whether objects the context already holds take the values (and
    /// version) of the rows just fetched, so that they show what other
    /// writers saved since they were read; Core Data's
    /// `shouldRefreshRefetchedObjects`. False by default, as there: such
    /// objects are returned as the context holds them.
    ///
    /// Objects with unsaved changes keep them (and the version they were
    /// read at, so saving them over another writer's save still
    /// conflicts). Refreshed objects whose rows had changed are posted as
    /// updated with the next `objectsDidChange` (see
    /// ``Context/processPendingChanges()``), not during the fetch.
    public var refreshesRefetchedObjects = false

    /// A request for every object of `entity` (matching `predicate`).
    public init(entity: String, predicate: FetchPredicate? = nil) {
        self.entityName = entity
        self.storedPredicate = predicate
    }

    /// A request for the objects of `entity` matching a predicate in
    /// `NSPredicate` format, with plain Swift values for its `%@`s; errors
    /// about the predicate quote `format` as written.
    ///
    /// ```swift
    /// let request = try FetchRequest(entity: "DiaryEntry", where: "title == %@", "Paris")
    /// ```
    ///
    /// - Throws: ``PredicateSyntaxError`` for text that does not parse.
    public init(
        entity: String, where format: String, _ arguments: any PredicateArgumentConvertible...
    ) throws {
        try self.init(entity: entity, where: format, arguments)
    }

    /// The request of ``init(entity:where:_:)``, with the arguments in an
    /// array (for callers that pass their own variadic arguments on).
    package init(
        entity: String, where format: String, _ arguments: [any PredicateArgumentConvertible]
    )
        throws
    {
        self.entityName = entity
        self.storedPredicate = try FetchPredicate(
            format, arguments: arguments.map(\.predicateArgument))
        self.predicateFormat = format
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
