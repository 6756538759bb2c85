/// One broken reference between the rows of a store, as found by
/// ``Store/checkRelationships(model:)``: which entity, property and row, and
/// what is wrong.
///
/// The message names tables, columns and primary keys only, never the values
/// of attributes.
public struct RelationshipProblem: Hashable, Sendable, CustomStringConvertible {
    /// The kinds of problem.
    public enum Kind: String, Hashable, Sendable {
        /// A to-one foreign key, or a join-table key, names no row at all.
        case missingDestination
        /// A key names a row of an entity the relationship cannot hold.
        case wrongDestinationEntity
        /// The `Z<n>_` entity column disagrees with the destination's `Z_ENT`.
        case entityColumnMismatch
        /// One side of a one-to-one pair does not point back.
        case oneToOneMismatch
        /// `Z_PRIMARYKEY.Z_MAX` of a root is below the table's largest `Z_PK`,
        /// so a key would be handed out twice.
        case maxBelowPrimaryKey
        /// A row's `Z_ENT` is no concrete entity of the table's tree.
        case unknownEntityNumber
        /// A required to-one is nil (checked by `strata check`).
        case missingRequired
        /// A member of an ordered to-many has no position (`strata check`).
        case missingPosition
        /// A to-many holds fewer or more objects than its rules allow
        /// (`strata check`).
        case countOutOfRange
    }

    /// What is wrong.
    public var kind: Kind
    /// The entity of the row (the concrete one when known), or the root
    /// entity for table-wide problems.
    public var entity: String
    /// The relationship concerned; nil for `Z_MAX` and `Z_ENT` problems.
    public var property: String?
    /// `Z_PK` of the row concerned (for a join table, the key of the object
    /// whose relationship it is).
    public var primaryKey: Int64?
    /// Details: the columns and keys involved.
    public var message: String

    /// `Recipe/p3.image: missingDestination: ZRECIPE.ZIMAGE = 9 names no row of ZIMAGE`
    public var description: String {
        let row = primaryKey.map { "/p\($0)" } ?? ""
        let property = property.map { ".\($0)" } ?? ""
        return "\(entity)\(row)\(property): \(kind.rawValue): \(message)"
    }
}
