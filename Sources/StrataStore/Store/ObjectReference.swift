/// A reference to one stored object: its entity and primary key, the parts of
/// Core Data's object id `x-coredata://<store UUID>/<Entity>/p<pk>` (§1.7).
public struct ObjectReference: Hashable, Sendable, CustomStringConvertible {
    /// The concrete entity's name.
    public var entity: String
    /// `Z_PK`.
    public var primaryKey: Int64

    /// Creates a reference.
    public init(entity: String, primaryKey: Int64) {
        self.entity = entity
        self.primaryKey = primaryKey
    }

    /// `<Entity>/p<pk>`, the store-relative part of the object id.
    public var description: String { "\(entity)/p\(primaryKey)" }

    /// The object id as Core Data writes it, for a store with `storeUUID`.
    public func uri(storeUUID: String) -> String {
        "x-coredata://\(storeUUID)/\(entity)/p\(primaryKey)"
    }
}
