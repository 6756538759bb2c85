import Foundation
import StrataCore
import StrataSchema

/// One field of an exported record and where its value is read from.
///
/// A class: every row visits every field, and copying the attribute or
/// relationship it carries would retain each of their strings per row.
final class ExportField {
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

    init(name: String, source: Source) {
        self.name = name
        self.source = source
    }
}

/// The objects one relationship leads to from one row: one prepared
/// statement, bound to the owner's key (or, for a nested to-one, the
/// destination's key) per row — or, for a to-many of rows read in key
/// order, one scan of every owner's destinations in owner order, advanced
/// beside the rows (a merge join: one pass instead of a lookup per row).
final class ExportRelatedRows {
    /// The relationship.
    let relationship: Relationship
    /// `SELECT Z_PK, Z_ENT, <attribute columns>`, in stored order (and the
    /// owner's key last, when merged).
    let statement: Statement
    /// The destination's attributes, columns from 2 on.
    let attributes: [Attribute]
    /// Whether the statement is bound to the destination's key (a to-one)
    /// rather than the owner's.
    let bindsDestinationKey: Bool
    /// The column of the owner's key when the statement reads every owner
    /// in key order; nil when it is bound per row.
    let ownerColumn: Int32?
    /// Whether the merged scan has started, and whether it has a current row.
    private var started = false
    private var hasRow = false

    init(
        relationship: Relationship, statement: Statement, attributes: [Attribute],
        bindsDestinationKey: Bool, ownerColumn: Int32? = nil
    ) {
        self.relationship = relationship
        self.statement = statement
        self.attributes = attributes
        self.bindsDestinationKey = bindsDestinationKey
        self.ownerColumn = ownerColumn
    }

    /// Calls `body` with the statement on each destination row of `key`,
    /// in the relationship's order.
    ///
    /// Merged, `key`s must come in ascending order (the rows' key order);
    /// owners that are not asked for are passed over.
    func forEachRow(of key: Int64, _ body: (Statement) throws -> Void) throws {
        guard let ownerColumn else {
            try statement.bind([.integer(key)])
            while try statement.step() { try body(statement) }
            return
        }
        if !started {
            started = true
            hasRow = try statement.step()
        }
        while hasRow, statement.int64(at: ownerColumn) < key { hasRow = try statement.step() }
        while hasRow, statement.int64(at: ownerColumn) == key {
            try body(statement)
            hasRow = try statement.step()
        }
    }
}
