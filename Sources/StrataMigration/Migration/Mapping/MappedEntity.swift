/// The rule of a mapping file for one destination entity: which source
/// objects its objects come from, which of them to drop, and how
/// attributes and relationships get their values.
///
/// When `source` is the entity the destination entity continues (itself, or
/// the one `renamedFrom` or its renaming identifier pairs it with), each
/// source object updates the destination object with the same primary key,
/// and objects whose source fails `condition` are deleted. When `source` is another entity, each
/// source object that passes `condition` creates a new destination object
/// (``createsObjects``).
public struct MappedEntity: Hashable, Sendable {
    /// The destination entity.
    public var name: String
    /// The source entity whose objects feed it.
    public var source: String
    /// The `where` predicate over source objects, in `NSPredicate` syntax.
    public var condition: String?
    /// Value expressions, by destination attribute name.
    public var attributes: [String: MappingExpression]
    /// Link rules, by destination relationship name.
    public var relationships: [String: MappedRelationship]
    /// Whether each source object creates a new destination object rather
    /// than updating the one with its primary key.
    public var createsObjects: Bool
    /// The JSON path of the rule in its file.
    public var path: String
    /// The custom migration policy class the rule's Core Data entity
    /// mapping named (`"policy"`): a migration through the rule needs a
    /// Swift step registered under that name (``MappingPolicy``).
    public var policy: String? = nil
    /// The Core Data entity mapping the rule was converted from
    /// (`"entityMapping"`), for messages.
    public var entityMapping: String? = nil
}
