/// Where one entity's objects live in a store: its number, its table and the
/// column of each of its stored properties (inherited ones included).
public struct EntityLayout: Hashable, Sendable {
    /// The columns that hold a to-one relationship.
    public struct ToOneColumns: Hashable, Sendable {
        /// The foreign key column holding the destination's `Z_PK`.
        public var foreignKey: String
        /// The `Z<n>_<NAME>` column holding the destination's `Z_ENT`, present
        /// when the destination entity has subentities.
        public var entityNumber: String?
        /// The `Z_FOK_<NAME>` column holding this object's position in the
        /// inverse's ordered to-many relationship, when the inverse is ordered.
        public var order: String?
    }

    /// The entity's name.
    public var name: String
    /// Core Data's entity number (`Z_ENT`), 1 for the first entity.
    public var number: Int
    /// The parent entity's number, 0 for a root (`Z_PRIMARYKEY.Z_SUPER`).
    public var superNumber: Int
    /// The name of the root of the entity's inheritance tree.
    public var rootName: String
    /// The table holding this entity's rows (its root's table).
    public var tableName: String
    /// Whether the entity is abstract.
    public var isAbstract: Bool
    /// The numbers of this entity and every entity inheriting from it, for
    /// `Z_ENT IN (…)` when fetching with subentities.
    public var treeNumbers: [Int]
    /// Column name of each stored attribute, keyed by attribute name.
    public var attributeColumns: [String: String]
    /// Columns of each stored to-one relationship, keyed by relationship name.
    public var toOneColumns: [String: ToOneColumns]
    /// Join table name of each many-to-many relationship, keyed by relationship name.
    public var joinTables: [String: String]
}
