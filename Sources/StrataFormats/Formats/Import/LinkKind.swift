/// How the values of a relationship's field name their destinations.
enum LinkKind: Hashable {
    /// By the destination's `relatedBy` attribute (or its one-attribute
    /// uniqueness constraint, `name` or `title`): a plain value.
    case relatedBy
    /// By one attribute of the destination, as a field named by a key path
    /// (`species.name`) says: found, or created with that value.
    case attribute(String)
    /// By object id (`Species/p3`, as `strata export` writes a relationship):
    /// the object of this input whose `_id` it is, else the store's object
    /// of that key. Never created.
    case objectID
}
