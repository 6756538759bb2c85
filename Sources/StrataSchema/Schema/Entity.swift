/// An entity of a model: a kind of object with attributes and relationships.
///
/// Mirrors `NSEntityDescription`. Properties are kept sorted by name, the
/// order Core Data uses for hashing and column naming.
public struct Entity: Hashable, Sendable {
    /// The entity's name, unique in the model.
    public var name: String
    /// The name of the parent entity, if this entity inherits from one.
    public var parent: String?
    /// Whether the entity has no instances of its own.
    public var isAbstract: Bool = false
    /// This entity's name in the previous version, when it was renamed
    /// (Strata's explicit form of a rename; see ``renamingIdentifier``).
    public var renamedFrom: String?
    /// Core Data's renaming identifier (Xcode's `elementID`): a label that
    /// pairs this entity with the entity of another version carrying the
    /// same identifier; nil means the entity's name. Not hashed.
    public var renamingIdentifier: String?
    /// Core Data's version hash modifier.
    public var versionHashModifier: String?
    /// Sets of attribute names whose values are unique together; imports
    /// upsert on them.
    public var uniquenessConstraints: [[String]] = []
    /// Fetch indexes, in the order the store creates them. Not hashed.
    public var indexes: [FetchIndex] = []
    /// What the element means, for people: generated classes carry it as
    /// their documentation. Not hashed.
    public var comment: String?
    /// Free-form keys and values for the app (Core Data's `userInfo`). Not
    /// hashed.
    public var userInfo: [String: String] = [:]
    /// The entity's own attributes (not inherited ones), sorted by name.
    public var attributes: [Attribute] = [] {
        didSet { attributes.sort { $0.name < $1.name } }
    }
    /// The entity's own relationships (not inherited ones), sorted by name.
    public var relationships: [Relationship] = [] {
        didSet { relationships.sort { $0.name < $1.name } }
    }
    /// The order the schema file lists the entity's own properties in, for
    /// output that follows the file (export columns); not part of the
    /// entity's identity (see ``PropertyOrder``).
    public var declaredOrder = PropertyOrder()

    /// Creates an entity with the given properties.
    public init(
        name: String,
        parent: String? = nil,
        attributes: [Attribute] = [],
        relationships: [Relationship] = []
    ) {
        self.name = name
        self.parent = parent
        self.attributes = attributes.sorted { $0.name < $1.name }
        self.relationships = relationships.sorted { $0.name < $1.name }
    }

    /// The entity's own attribute named `name`, if any.
    public func attribute(named name: String) -> Attribute? {
        attributes.first { $0.name == name }
    }

    /// The entity's own relationship named `name`, if any.
    public func relationship(named name: String) -> Relationship? {
        relationships.first { $0.name == name }
    }
}
