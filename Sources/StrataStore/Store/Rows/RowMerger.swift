import Foundation
import StrataCore
import StrataSchema

/// Adds the rows of one store to another at the same model version, in
/// set-based SQL over the source attached read-only: an object whose
/// entity's first uniqueness constraint (or its ``matchingKeys``) matches
/// an object of the destination updates that object (its attributes and
/// to-one links take the source's values, `Z_OPT` goes up); every other
/// object is added under a new key after its tree's counter (``KeyAllocator``).
/// Links are carried over with the keys and entity numbers translated;
/// join rows already there are kept. `Z_MAX` is raised to the new keys.
///
/// All of it runs in one transaction of the destination, whose references
/// are checked before it commits.
package struct RowMerger {
    /// The store whose rows are added.
    package let source: Store
    /// The store they are added to.
    package let destination: Store
    /// The model of both.
    package let model: Model
    /// The attributes that find an existing object, by entity, instead of
    /// the entity's first uniqueness constraint.
    package var matchingKeys: [String: [String]] = [:]
    /// Metadata written to the destination in the merge's transaction (a
    /// Day One import records its journal's name), so both commit together.
    package var metadata: StoreMetadata?

    /// A merge of `source` into `destination`, both at `model`.
    package init(
        source: Store, destination: Store, model: Model, matchingKeys: [String: [String]] = [:]
    ) {
        self.source = source
        self.destination = destination
        self.model = model
        self.matchingKeys = matchingKeys
    }

    /// Adds the rows, in one transaction of the destination.
    ///
    /// - Throws: ``RowMergeError`` when a matching attribute has no column
    ///   or the merge would break a reference (nothing is written);
    ///   ``SQLiteError``.
    package func merge() throws {
        let from = try StoreMapping(model: model, store: source)
        let into = try StoreMapping(model: model, store: destination)
        let connection = destination.connection
        try connection.execute("ATTACH DATABASE ? AS strata_bundle", [.text(source.url.path)])
        defer { try? connection.execute("DETACH DATABASE strata_bundle") }  // Read only.
        try connection.inTransaction(.immediate) {
            try merge(from: from, into: into, connection: connection)
            if let problem = try destination.checkRelationships(model: model).first {
                throw RowMergeError(.brokenReference, "merging would break a reference: \(problem)")
            }
            if let metadata { try destination.writeMetadata(metadata) }
        }
    }

    private func merge(from: StoreMapping, into: StoreMapping, connection: Connection) throws {
        let quoted = SQLiteIdentifier.quoted
        try connection.execute(
            "CREATE TEMP TABLE strata_keys (tbl TEXT, old INTEGER, new INTEGER, PRIMARY KEY (tbl, old))"
        )
        defer { try? connection.execute("DROP TABLE temp.strata_keys") }  // Scratch.
        // Offsets: new keys go after each destination tree's counter.
        var offsets: [String: Int64] = [:]
        let keys = try KeyAllocator(connection: connection)
        for root in into.entities.values where model.entity(named: root.name)?.parent == nil {
            offsets[root.table] = try keys.counter(forRoot: root.name, table: root.table).maximum
        }
        // Entity numbers may differ between the two files (Core Data's own).
        func entityCase(_ column: String) -> String {
            let cases = from.entities.values.compactMap { entity -> String? in
                guard let number = into.entities[entity.name]?.number else { return nil }
                return "WHEN \(entity.number) THEN \(number)"
            }.sorted().joined(separator: " ")
            return "CASE \(column) \(cases) END"
        }
        func remap(_ expression: String, table: String) -> String {
            "coalesce((SELECT new FROM temp.strata_keys WHERE tbl = '\(table.replacingOccurrences(of: "'", with: "''"))' "
                + "AND old = \(expression)), \(expression) + \(offsets[table] ?? 0))"
        }
        // Objects found by their uniqueness constraint.
        for entity in model.entities where !entity.isAbstract {
            guard
                let constraint = matchingKeys[entity.name] ?? entity.uniquenessConstraints.first,
                !constraint.isEmpty,
                let source = from.entities[entity.name], let target = into.entities[entity.name]
            else { continue }
            let matches = try constraint.map { name -> String in
                guard let s = source.attributeColumns[name], let d = target.attributeColumns[name]
                else {
                    throw RowMergeError(
                        .missingColumn, "\(entity.name)'s unique \(name) has no column")
                }
                return "s.\(quoted(s)) IS d.\(quoted(d))"
            }.joined(separator: " AND ")
            try connection.execute(
                "INSERT OR IGNORE INTO temp.strata_keys SELECT ?, s.Z_PK, min(d.Z_PK) "
                    + "FROM strata_bundle.\(quoted(source.table)) s JOIN main.\(quoted(target.table)) d "
                    + "ON d.Z_ENT IN (\(target.treeNumbers.map(String.init).joined(separator: ", "))) "
                    + "AND \(matches) WHERE s.Z_ENT = ? GROUP BY s.Z_PK",
                [.text(target.table), .integer(Int64(source.number))])
        }
        // Rows: updated when matched, added otherwise.
        for entity in model.entities where !entity.isAbstract {
            guard let source = from.entities[entity.name], let target = into.entities[entity.name]
            else { continue }
            var targetColumns: [String] = []
            var values: [String] = []
            for (name, column) in source.attributeColumns.sorted(by: { $0.key < $1.key }) {
                guard let destinationColumn = target.attributeColumns[name] else { continue }
                targetColumns.append(quoted(destinationColumn))
                values.append("s.\(quoted(column))")
            }
            for (name, columns) in source.toOne.sorted(by: { $0.key < $1.key }) {
                guard let destinationColumns = target.toOne[name],
                    let relationship = model.allRelationships(of: entity.name).first(where: {
                        $0.name == name
                    }), let destinationTable = into.entities[relationship.destination]?.table
                else { continue }
                targetColumns.append(quoted(destinationColumns.foreignKey))
                values.append(remap("s.\(quoted(columns.foreignKey))", table: destinationTable))
                if let entityColumn = columns.entityColumn,
                    let targetEntityColumn = destinationColumns.entityColumn
                {
                    targetColumns.append(quoted(targetEntityColumn))
                    values.append(entityCase("s.\(quoted(entityColumn))"))
                }
                if let order = columns.orderColumn, let targetOrder = destinationColumns.orderColumn
                {
                    targetColumns.append(quoted(targetOrder))
                    values.append("s.\(quoted(order))")
                }
            }
            let table = quoted(target.table)
            let matched =
                "EXISTS (SELECT 1 FROM temp.strata_keys k WHERE k.tbl = ?1 AND k.old = s.Z_PK)"
            try connection.execute(
                "INSERT INTO main.\(table) (Z_PK, Z_ENT, Z_OPT"
                    + targetColumns.map { ", " + $0 }.joined() + ") SELECT "
                    + remap("s.Z_PK", table: target.table) + ", \(target.number), 1"
                    + values.map { ", " + $0 }.joined()
                    + " FROM strata_bundle.\(quoted(source.table)) s WHERE s.Z_ENT = ?2 AND NOT \(matched)",
                [.text(target.table), .integer(Int64(source.number))])
            if !targetColumns.isEmpty {
                for (column, value) in zip(targetColumns, values) {
                    try connection.execute(
                        "UPDATE main.\(table) SET \(column) = (SELECT \(value) FROM "
                            + "strata_bundle.\(quoted(source.table)) s JOIN temp.strata_keys k "
                            + "ON k.tbl = ?1 AND k.old = s.Z_PK WHERE k.new = main.\(table).Z_PK "
                            + "AND s.Z_ENT = ?2), Z_OPT = Z_OPT + 1 WHERE Z_PK IN (SELECT k.new "
                            + "FROM temp.strata_keys k JOIN strata_bundle.\(quoted(source.table)) s "
                            + "ON s.Z_PK = k.old WHERE k.tbl = ?1 AND s.Z_ENT = ?2)",
                        [.text(target.table), .integer(Int64(source.number))])
                }
            }
        }
        // Join tables: both keys translated; rows already there are kept.
        for entity in model.entities {
            guard let source = from.entities[entity.name], let target = into.entities[entity.name]
            else { continue }
            for relationship in entity.relationships where relationship.isToMany {
                guard
                    case .joinTable(let table, let sourceColumn, let targetColumn, let order)? =
                        source.toMany[relationship.name],
                    case .joinTable(let joinTable, let joinSource, let joinTarget, let joinOrder)? =
                        target.toMany[relationship.name],
                    let destinationTable = into.entities[relationship.destination]?.table
                else { continue }
                var columns = [quoted(joinSource), quoted(joinTarget)]
                var values = [
                    remap("j.\(quoted(sourceColumn))", table: target.table),
                    remap("j.\(quoted(targetColumn))", table: destinationTable),
                ]
                if let order, let joinOrder {
                    columns.append(quoted(joinOrder))
                    values.append("j.\(quoted(order))")
                }
                try connection.execute(
                    "INSERT OR IGNORE INTO main.\(quoted(joinTable)) (\(columns.joined(separator: ", "))) "
                        + "SELECT \(values.joined(separator: ", ")) FROM strata_bundle.\(quoted(table)) j"
                )
            }
        }
        try KeyAllocator.raiseToHighestKeys(of: into, model: model, on: connection)
    }
}

/// Why a ``RowMerger`` wrote nothing.
package struct RowMergeError: Error, CustomStringConvertible, Sendable {
    /// What went wrong.
    package enum Code: Sendable {
        /// An attribute that finds existing objects has no column.
        case missingColumn
        /// A link of the merged store would lead nowhere.
        case brokenReference
    }

    /// What went wrong.
    package let code: Code
    /// The message, naming the entity or the reference.
    package let message: String

    /// An error of `code` saying `message`.
    package init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// The message.
    package var description: String { message }
}
