/// A fetch index of an entity: an SQL index over one or more of its
/// properties, as Xcode 9+ models declare with `<fetchIndex>`.
///
/// Mirrors `NSFetchIndexDescription`. Indexes speed up fetches; they are not
/// part of Core Data's version hashes, so adding or removing one needs no
/// migration. The store gets `CREATE INDEX Z_<Entity>_<name> ON <TABLE> (…)`
/// (coredata-format.md §1.6).
///
/// ```swift
/// let byURL = FetchIndex(name: "byURL", elements: [.init(property: "url")])
/// ```
public struct FetchIndex: Hashable, Sendable {
    /// One indexed property with its sort order and kind.
    public struct Element: Hashable, Sendable {
        /// The name of an attribute or to-one relationship of the entity.
        public var property: String
        /// The order of the property's values in the index.
        public var order: Order = .ascending
        /// The kind of index the element belongs in.
        public var kind: Kind = .binary

        /// Creates an element; order and kind take Core Data's defaults.
        public init(property: String, order: Order = .ascending, kind: Kind = .binary) {
            self.property = property
            self.order = order
            self.kind = kind
        }
    }

    /// The order of an element's values. The raw value is the JSON spelling.
    public enum Order: String, CaseIterable, Hashable, Sendable {
        /// Smallest first (`ASC`), the default.
        case ascending
        /// Largest first (`DESC`).
        case descending
    }

    /// The kind of an index element (`NSFetchIndexElementType`). The raw
    /// value is the JSON spelling.
    public enum Kind: String, CaseIterable, Hashable, Sendable {
        /// An ordinary B-tree index, the default.
        case binary
        /// A spatial R-tree index over a range of values.
        case rtree
    }

    /// The index's name, unique among the entity's indexes.
    public var name: String
    /// The indexed properties, in index order.
    public var elements: [Element]

    /// Creates a fetch index.
    public init(name: String, elements: [Element]) {
        self.name = name
        self.elements = elements
    }

    /// Whether any element is an R-tree element; the store layout leaves such
    /// indexes out (see ``StoreLayout``).
    public var isRTree: Bool {
        elements.contains { $0.kind == .rtree }
    }
}
