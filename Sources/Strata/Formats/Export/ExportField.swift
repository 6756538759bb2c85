import Foundation

/// One field of an exported record and where its value is read from.
struct ExportField {
    /// Where a field's value comes from.
    enum Source {
        /// `Entity/p<pk>` of the object itself.
        case id
        /// An attribute's column in the row.
        case attribute(Attribute, column: Int32)
        /// A to-one relationship's key column (and the column with the
        /// destination's entity number, when the table has one).
        case toOne(Relationship, column: Int32, entityColumn: Int32?)
        /// A to-many relationship: the ids of the related objects, in order.
        case toMany(Relationship, ExportRelatedRows)
        /// Related objects written nested, with their attributes; a to-one
        /// reads the destination's key from `keyColumn` of the row.
        case nested(Relationship, ExportRelatedRows, keyColumn: Int32?)
    }

    /// The field's name in the output.
    let name: String
    /// Where its value is read.
    let source: Source
}

/// The objects one relationship leads to from one row: one prepared
/// statement, bound to the owner's key (or, for a nested to-one, the
/// destination's key) per row.
final class ExportRelatedRows {
    /// The relationship.
    let relationship: Relationship
    /// `SELECT Z_PK, Z_ENT, <attribute columns>`, in stored order.
    let statement: Statement
    /// The destination's attributes, columns from 2 on.
    let attributes: [Attribute]
    /// Whether the statement is bound to the destination's key (a to-one)
    /// rather than the owner's.
    let bindsDestinationKey: Bool

    init(
        relationship: Relationship, statement: Statement, attributes: [Attribute],
        bindsDestinationKey: Bool
    ) {
        self.relationship = relationship
        self.statement = statement
        self.attributes = attributes
        self.bindsDestinationKey = bindsDestinationKey
    }
}
