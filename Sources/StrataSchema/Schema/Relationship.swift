/// A relationship from one entity to another, usually with an inverse.
///
/// Core Data allows a relationship without an inverse (Xcode warns), and
/// real models have them: a to-one without an inverse is stored exactly like
/// one with an inverse (its foreign-key column and index); deleting its
/// destination leaves the key, which reads as nil. A to-many without an
/// inverse is written as a join table named after it (`Z_<ent><NAME>`, its
/// own keys in `Z_<ent><ENTITY>`): that layout is unverified, no store of
/// Core Data's with one having been found.
///
/// Mirrors `NSRelationshipDescription`.
public struct Relationship: Hashable, Sendable {
    /// The relationship's name, unique among the entity's properties.
    public var name: String
    /// The name of the destination entity.
    public var destination: String
    /// The name of the inverse relationship on the destination entity;
    /// empty when the relationship has none (see ``hasInverse``).
    public var inverse: String
    /// Whether the relationship holds many objects.
    public var isToMany: Bool = false
    /// Whether a to-many relationship keeps its objects in order.
    public var isOrdered: Bool = false
    /// Whether the relationship may be empty. Defaults to `false`, as in Core Data.
    public var isOptional: Bool = false
    /// Whether the relationship is kept in memory only.
    public var isTransient: Bool = false
    /// The fewest objects allowed (0 = no minimum).
    public var minCount: Int = 0
    /// The most objects allowed, as declared (0 = unbounded); a to-one
    /// relationship always counts as 1, see ``effectiveMaxCount``.
    public var maxCount: Int = 0
    /// What deleting the source object does to the destination objects.
    public var deleteRule: DeleteRule = .nullify
    /// Core Data's version hash modifier.
    public var versionHashModifier: String?
    /// This relationship's name in the previous version, when it was
    /// renamed (Strata's explicit form of a rename; see ``renamingIdentifier``).
    public var renamedFrom: String?
    /// Core Data's renaming identifier (Xcode's `elementID`): a label that
    /// pairs this relationship with the relationship of another version
    /// carrying the same identifier; nil means its name. Not hashed.
    public var renamingIdentifier: String?
    /// An attribute of the destination used to find or create it from a scalar
    /// on import.
    public var relatedBy: String?
    /// What the element means, for people: generated classes carry it as
    /// their documentation. Not hashed.
    public var comment: String?
    /// Free-form keys and values for the app (Core Data's `userInfo`). Not
    /// hashed.
    public var userInfo: [String: String] = [:]

    /// Creates a relationship; every other field takes Core Data's default.
    public init(name: String, destination: String, inverse: String, isToMany: Bool = false) {
        self.name = name
        self.destination = destination
        self.inverse = inverse
        self.isToMany = isToMany
    }

    /// Whether the relationship names an inverse.
    public var hasInverse: Bool { !inverse.isEmpty }

    /// The maximum count Core Data records: 1 for a to-one relationship,
    /// otherwise the declared ``maxCount`` (0 meaning unbounded).
    public var effectiveMaxCount: Int {
        isToMany ? maxCount : 1
    }
}
