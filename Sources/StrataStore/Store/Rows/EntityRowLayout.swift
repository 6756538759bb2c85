import StrataCore
import StrataSchema

/// How the rows of one entity are laid out in its table: `Z_PK`, `Z_ENT`,
/// `Z_OPT`, then a *value column* per stored attribute (inherited ones
/// included, in the model's order), then each stored to-one's key column
/// (and its `Z<n>_` entity-number column when the table has one), then the
/// `Z_FOK_` order columns of to-ones whose inverse is ordered.
///
/// The one place that says which column of a row holds what, and the
/// parameters of the `INSERT` and `UPDATE` every writer binds (the
/// context's save, the importer, the bundle loader, a migration's mapping
/// rules): column `i` of ``columns`` is parameter `i + 4` of
/// ``insertSQL(rows:)``. Read-only once made, so threads may share it.
package final class EntityRowLayout: @unchecked Sendable {
    /// Where one to-one relationship is kept, as indexes into ``columns``.
    package struct ToOne {
        /// The schema relationship.
        package let relationship: Relationship
        /// The column of the destination's key.
        package let foreignKey: Int
        /// The column of the destination's `Z_ENT`, when the table has one.
        package let entity: Int?
        /// The `Z_FOK_` column of the row's place in the destination's
        /// ordered to-many, when the inverse is ordered.
        package let order: Int?
    }

    /// The entity's name.
    package let entity: String
    /// `Z_ENT` of the entity's rows.
    package let number: Int
    /// The root of the entity's inheritance tree, whose counter hands out
    /// its keys (``KeyAllocator``).
    package let rootName: String
    /// The table the rows live in.
    package let table: String
    /// The stored attributes, in column order: attribute `i` is column `i`.
    package let attributes: [Attribute]
    /// The stored to-one relationships, in the model's order.
    package let toOnes: [ToOne]
    /// The value columns, unquoted: the attributes', the to-ones' key and
    /// entity columns, then the order columns.
    package let columns: [String]
    /// How many of ``columns`` a whole-row ``updateSQL`` writes: all but the
    /// order columns, which belong to the destination's list and are
    /// written by whoever places the row in it.
    let rowColumnCount: Int
    /// `INSERT` of one whole row: ``insertSQL(rows:)`` of 1.
    let insertSQL: String
    /// `UPDATE` of a whole row by `Z_PK`: `Z_OPT` (parameter 1), the first
    /// ``rowColumnCount`` columns (parameters 2…), then `Z_PK`.
    let updateSQL: String

    /// The parameter of `Z_PK` in ``insertSQL(rows:)``; `Z_ENT` and `Z_OPT`
    /// follow it, then column `i` at `i + firstValueParameter`.
    package static let keyParameter: Int32 = 1
    /// The parameter of ``columns``' first value in ``insertSQL(rows:)``.
    package static let firstValueParameter: Int32 = 4

    /// The layout of `entity` of `model` in the table `tables` describes.
    package init(entity: String, model: Model, tables: StoreMapping.EntityMapping) {
        self.entity = entity
        number = tables.number
        rootName = model.rootEntity(of: entity)?.name ?? entity
        table = tables.table
        attributes = model.allAttributes(of: entity).filter {
            !$0.isTransient && tables.attributeColumns[$0.name] != nil
        }
        var columns = attributes.compactMap { tables.attributeColumns[$0.name] }
        var toOnes: [ToOne] = []
        var orderColumns: [(relationship: Int, column: String)] = []
        for relationship in model.allRelationships(of: entity)
        where !relationship.isToMany && !relationship.isTransient {
            guard let kept = tables.toOne[relationship.name] else { continue }
            let foreignKey = columns.count
            columns.append(kept.foreignKey)
            var entityColumn: Int?
            if let column = kept.entityColumn {
                entityColumn = columns.count
                columns.append(column)
            }
            if let column = kept.orderColumn { orderColumns.append((toOnes.count, column)) }
            toOnes.append(
                ToOne(
                    relationship: relationship, foreignKey: foreignKey, entity: entityColumn,
                    order: nil))
        }
        rowColumnCount = columns.count
        for (index, column) in orderColumns {
            let kept = toOnes[index]
            toOnes[index] = ToOne(
                relationship: kept.relationship, foreignKey: kept.foreignKey,
                entity: kept.entity, order: columns.count)
            columns.append(column)
        }
        self.toOnes = toOnes
        self.columns = columns
        let assignments = (["Z_OPT"] + columns[..<rowColumnCount].map(SQLiteIdentifier.quoted))
            .map { "\($0) = ?" }.joined(separator: ", ")
        insertSQL = Self.insertSQL(table: table, columns: columns, rows: 1)
        updateSQL =
            "UPDATE \(SQLiteIdentifier.quoted(table)) SET \(assignments) WHERE Z_PK = ?"
    }

    /// `INSERT` of `rows` whole rows: `Z_PK`, `Z_ENT`, `Z_OPT` and every
    /// column, each row's parameters after the previous row's.
    func insertSQL(rows: Int) -> String {
        Self.insertSQL(table: table, columns: columns, rows: rows)
    }

    private static func insertSQL(table: String, columns: [String], rows: Int) -> String {
        let names = (["Z_PK", "Z_ENT", "Z_OPT"] + columns).map(SQLiteIdentifier.quoted)
        let row = "(" + Array(repeating: "?", count: names.count).joined(separator: ", ") + ")"
        return "INSERT INTO \(SQLiteIdentifier.quoted(table)) (\(names.joined(separator: ", "))) "
            + "VALUES " + Array(repeating: row, count: max(1, rows)).joined(separator: ", ")
    }

    /// The parameters of one row of ``insertSQL(rows:)``: `Z_PK`, `Z_ENT`,
    /// `Z_OPT` and every column.
    package var parametersPerRow: Int { columns.count + 3 }

    /// The parameter of column `index` in ``insertSQL(rows:)``'s first row.
    package static func parameter(ofColumn index: Int) -> Int32 {
        Int32(index) + firstValueParameter
    }
}
