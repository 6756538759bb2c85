import StrataSchema

/// One row of a store read as an object of its entity: attribute values and
/// to-one references. To-many relationships are read on demand with
/// ``StoreReader/destinations(of:from:)``.
public struct StoredObject: Hashable, Sendable {
    /// The object's entity and primary key.
    public var reference: ObjectReference
    /// `Z_OPT`: the optimistic-lock version, 1 after the first save.
    public var version: Int64
    /// The non-nil attribute values, by attribute name.
    public var attributes: [String: AttributeValue]
    /// The destinations of non-empty to-one relationships, by relationship name.
    public var toOne: [String: ObjectReference]
}
