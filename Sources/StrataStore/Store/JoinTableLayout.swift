/// The table that holds one many-to-many relationship pair, named after the
/// side with the lower entity number (coredata-format.md §1.5).
public struct JoinTableLayout: Hashable, Sendable {
    /// One side of the pair: the relationship whose destination objects one
    /// column holds.
    public struct Side: Hashable, Sendable {
        /// The entity declaring the relationship.
        public var entity: String
        /// The relationship's name.
        public var relationship: String
        /// The column holding this relationship's destination primary keys.
        public var destinationColumn: String
        /// The `Z_FOK_` column holding positions when the relationship is ordered.
        public var orderColumn: String?
    }

    /// The table name, such as `Z_1BOOKS`.
    public var name: String
    /// The side the table is named after (the lower entity number).
    public var namingSide: Side
    /// The other side (its inverse); for a to-many without an inverse, a
    /// side with an empty relationship name whose column holds the naming
    /// side's own keys.
    public var inverseSide: Side
    /// The indexes the store actually has on the table, when the layout was
    /// fitted to one (``StoreLayout``'s `fitted(to:)`); nil for the computed
    /// index.
    var actualIndexes: [TableLayout.Index]?
    /// Whether the table holds a to-many relationship without an inverse.
    public var isOneSided: Bool { inverseSide.relationship.isEmpty }
    /// The column holding the naming side's own primary keys.
    public var sourceColumn: String { inverseSide.destinationColumn }
    /// The column holding the naming side's destination primary keys.
    public var destinationColumn: String { namingSide.destinationColumn }

    /// The table as created: both key columns, the order columns, and the
    /// reverse index.
    public var table: TableLayout {
        var columns = [
            TableLayout.Column(name: sourceColumn, type: "INTEGER", isPrimaryKey: true),
            TableLayout.Column(name: destinationColumn, type: "INTEGER", isPrimaryKey: true),
        ]
        // The first column's ordering comes first, as in Wire's stores.
        for order in [inverseSide.orderColumn, namingSide.orderColumn].compactMap({ $0 }) {
            columns.append(TableLayout.Column(name: order, type: "INTEGER"))
        }
        let index = TableLayout.Index(
            name: "\(name)_\(destinationColumn)_INDEX",
            columns: [destinationColumn, sourceColumn])
        return TableLayout(name: name, columns: columns, indexes: actualIndexes ?? [index])
    }
}
