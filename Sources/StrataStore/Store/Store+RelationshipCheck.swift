import StrataCore
import StrataSchema

// MARK: - Checking references between rows

extension Store {
    /// Checks, in SQL, every reference Core Data keeps between rows — the
    /// store's equivalent of `PRAGMA foreign_key_check`, since its foreign
    /// keys are plain integer columns that SQLite does not know about.
    ///
    /// Checked, for `model` as mapped onto this store's tables:
    /// - every `Z_ENT` in a table is a concrete entity of that table's tree;
    /// - `Z_PRIMARYKEY.Z_MAX` of each root is at least the table's largest
    ///   `Z_PK`, so no key is ever handed out twice;
    /// - every to-one foreign key names an existing row whose `Z_ENT` is the
    ///   destination entity or one of its subentities;
    /// - a `Z<n>_` entity column, when present, holds that row's `Z_ENT`;
    /// - a one-to-one pair stored on both sides points back (if A.b = B then
    ///   B.a = A);
    /// - both keys of every join-table row name existing rows of the right
    ///   entities.
    ///
    /// ```swift
    /// let problems = try store.checkRelationships(model: model)
    /// for problem in problems { print(problem) }
    /// ```
    ///
    /// - Parameters:
    ///   - model: The model version the store holds.
    ///   - tables: When given, only checks that read one of these tables
    ///     (a root table's own checks; relationships whose owner,
    ///     destination or join table is among them); nil checks everything.
    /// - Returns: Every problem found, table-wide ones first, then by entity,
    ///   relationship and row; empty for a sound store.
    /// - Throws: ``StoreError`` when `model` does not fit the store's tables;
    ///   ``SQLiteError`` when a query fails.
    public func checkRelationships(
        model: Model, tables: Set<String>? = nil
    ) throws -> [RelationshipProblem] {
        try checkRelationships(model: model, tables: tables, knownJoinColumns: [])
    }

    /// ``checkRelationships(model:tables:)``, less the join-table columns
    /// (`table.column`) whose keys the caller knows name existing rows of
    /// the right entity (a loader that wrote them from those rows), and,
    /// unless `checksTables`, less the `Z_ENT` and `Z_MAX` checks (a loader
    /// that wrote both itself).
    ///
    /// With `written`, only the rows a writer wrote are looked at (each
    /// check reads the rows of the reporting side in the written key
    /// ranges), so a writer's end check costs what it wrote, not the
    /// tables.
    package func checkRelationships(
        model: Model, tables: Set<String>?, knownJoinColumns: Set<String>,
        checksTables: Bool = true, checksCounts: Bool = false, written: WrittenRows? = nil
    ) throws -> [RelationshipProblem] {
        var checker = RelationshipChecker(
            connection: connection, model: model,
            mapping: try StoreMapping(model: model, store: self),
            names: Dictionary(entityRecords.map { ($0.number, $0.name) }) { first, _ in first },
            tables: tables)
        checker.written = written
        checker.checkedJoinColumns = knownJoinColumns
        checker.checksCounts = checksCounts
        if checksTables { try checker.checkTables() }
        try checker.checkRelationships()
        return checker.problems
    }
}

/// The rows a writer wrote, by table: every key from the first it handed
/// out on, and the store's rows it linked (whose references it changed).
package struct WrittenRows: Sendable {
    /// The first key handed out in each table.
    var firstNewKey: [String: Int64] = [:]
    /// Rows of the store the writer linked, by table.
    var linked: [String: Set<Int64>] = [:]

    /// Every stored property (the memberwise initializer, for the other layers).
    package init(firstNewKey: [String: Int64] = [:], linked: [String: Set<Int64>] = [:]) {
        self.firstNewKey = firstNewKey
        self.linked = linked
    }

    /// Whether row `key` of `table` was written.
    package func contains(_ key: Int64, in table: String) -> Bool {
        if let first = firstNewKey[table], key >= first { return true }
        return linked[table]?.contains(key) == true
    }
}

/// The queries behind ``Store/checkRelationships(model:)``. Identifiers are
/// quoted, entity numbers bound.
private struct RelationshipChecker {
    let connection: Connection
    let model: Model
    let mapping: StoreMapping
    /// Entity names by store number.
    let names: [Int: String]
    var problems: [RelationshipProblem] = []
    /// Only checks reading one of these tables; nil for all.
    let tables: Set<String>?
    /// Join-table columns already checked, as `table.column`.
    var checkedJoinColumns: Set<String> = []
    /// Whether required relationships, counts and ordered positions are
    /// checked too (`strata check`; a writer's own checks leave them to
    /// the writer).
    var checksCounts = false
    /// When set, only these rows are checked (see ``writtenFilter(_:table:)``).
    var written: WrittenRows?

    /// The linked keys listed in a query at most; more and the check reads
    /// the table, its caller filtering what it reports.
    private static let listedKeys = 500

    /// ` AND (column >= ? OR column IN (…))`, limiting a check to the rows
    /// written in `table` (the reporting side, whose key is `column`), with
    /// its values; empty when every row is checked; nil when no row of
    /// `table` was written (the check is skipped).
    private func writtenFilter(
        _ column: String, table: String
    ) -> (sql: String, values: [SQLiteValue])? {
        guard let written else { return ("", []) }
        let first = written.firstNewKey[table]
        let linked = written.linked[table] ?? []
        guard first != nil || !linked.isEmpty else { return nil }
        guard linked.count <= Self.listedKeys else { return ("", []) }
        var parts: [String] = []
        var values: [SQLiteValue] = []
        if let first {
            parts.append("\(column) >= ?")
            values.append(.integer(first))
        }
        if !linked.isEmpty {
            parts.append("\(column) IN (\(marks(linked.count)))")
            values += linked.sorted().map { .integer($0) }
        }
        return (" AND (" + parts.joined(separator: " OR ") + ")", values)
    }

    private func involves(_ names: String...) -> Bool {
        guard let tables else { return true }
        return names.contains { tables.contains($0) }
    }

    private func quoted(_ name: String) -> String { SQLiteIdentifier.quoted(name) }

    private func marks(_ count: Int) -> String {
        Array(repeating: "?", count: count).joined(separator: ", ")
    }

    private func bound(_ numbers: [Int]) -> [SQLiteValue] {
        numbers.map { .integer(Int64($0)) }
    }

    private func name(of number: Int64, or fallback: String) -> String {
        names[Int(number)] ?? fallback
    }

    private mutating func report(
        _ kind: RelationshipProblem.Kind, _ entity: String, _ property: String?, _ key: Int64?,
        _ message: String
    ) {
        problems.append(
            RelationshipProblem(
                kind: kind, entity: entity, property: property, primaryKey: key, message: message))
    }

    // MARK: - Tables

    /// `Z_ENT` values and `Z_MAX` of every root entity's table.
    mutating func checkTables() throws {
        for root in model.entities where root.parent == nil {
            guard let entity = mapping.entity(named: root.name), involves(entity.table) else {
                continue
            }
            let table = entity.table
            let tree = model.entityTree(rootedAt: root.name)
            let concrete = tree.filter { !$0.isAbstract }
                .compactMap { mapping.entity(named: $0.name)?.number }
            let strays = try connection.prepare(
                "SELECT Z_PK, Z_ENT FROM \(quoted(table))"
                    + " WHERE Z_ENT IS NULL OR Z_ENT NOT IN (\(marks(concrete.count)))"
                    + " ORDER BY Z_PK")
            try strays.bind(bound(concrete))
            while try strays.step() {
                let key = strays.int64(at: 0)
                let what: String
                if strays.isNull(at: 1) {
                    what = "Z_ENT is NULL"
                } else if let known = names[Int(strays.int64(at: 1))],
                    tree.contains(where: { $0.name == known && $0.isAbstract })
                {
                    what = "Z_ENT \(strays.int64(at: 1)) is the abstract entity \(known)"
                } else {
                    what = "Z_ENT \(strays.int64(at: 1)) is no entity of the \(root.name) tree"
                }
                report(.unknownEntityNumber, root.name, nil, key, "\(table): \(what)")
            }

            let largest = try connection.scalar("SELECT MAX(Z_PK) FROM \(quoted(table))")
            if let largest = largest?.int64Value {
                let recorded = try KeyAllocator.recorded(ofEntity: entity.number, on: connection)
                if recorded < largest {
                    report(
                        .maxBelowPrimaryKey, root.name, nil, largest,
                        "Z_PRIMARYKEY.Z_MAX is \(recorded) but \(table) holds Z_PK \(largest)")
                }
            }
        }
    }

    // MARK: - Relationships

    /// To-one keys, entity columns, one-to-one pairs and join tables, for
    /// each relationship where it is declared (inherited ones share columns).
    package mutating func checkRelationships() throws {
        for entity in model.entities {
            guard let source = mapping.entity(named: entity.name) else { continue }
            for relationship in entity.relationships where !relationship.isTransient {
                guard let destination = mapping.entity(named: relationship.destination) else {
                    continue
                }
                if relationship.isToMany {
                    if case .joinTable(let table, let sourceColumn, let targetColumn, _)? =
                        source.toMany[relationship.name],
                        involves(table, source.table, destination.table)
                    {
                        // Without an inverse a join row may outlive its
                        // destination (it reads as absent); its owner must exist.
                        if relationship.hasInverse {
                            try checkJoinColumn(
                                table, targetColumn, pointingAt: destination, owner: entity.name,
                                relationship.name, ownerColumn: sourceColumn)
                        }
                        try checkJoinColumn(
                            table, sourceColumn, pointingAt: source,
                            owner: relationship.hasInverse ? relationship.destination : entity.name,
                            relationship.hasInverse ? relationship.inverse : relationship.name,
                            ownerColumn: targetColumn)
                    }
                    if checksCounts, let toMany = source.toMany[relationship.name],
                        involves(source.table, destination.table)
                    {
                        try checkCount(relationship, toMany, of: source, to: destination)
                    }
                } else if let columns = source.toOne[relationship.name],
                    involves(source.table, destination.table)
                {
                    // Without an inverse a key may outlive its row, as Core Data
                    // leaves it; it reads as nil.
                    if relationship.hasInverse {
                        try checkForeignKey(relationship, columns, from: source, to: destination)
                    }
                    if let entityColumn = columns.entityColumn {
                        try checkEntityColumn(
                            relationship, columns.foreignKey, entityColumn, from: source,
                            to: destination)
                    }
                    let inverse = model.allRelationships(of: relationship.destination)
                        .first { $0.name == relationship.inverse }
                    if let inverse, !inverse.isToMany, let back = destination.toOne[inverse.name] {
                        try checkOneToOne(
                            relationship, inverse.name, columns.foreignKey, back.foreignKey,
                            from: source, to: destination)
                    }
                    if checksCounts {
                        try checkRequiredAndPosition(relationship, columns, of: source)
                    }
                }
            }
        }
    }

    /// Every non-null foreign key names a row of the destination's tree.
    private mutating func checkForeignKey(
        _ relationship: Relationship, _ columns: StoreMapping.ToOneMapping,
        from source: StoreMapping.EntityMapping, to destination: StoreMapping.EntityMapping
    ) throws {
        let key = quoted(columns.foreignKey)
        guard let scope = writtenFilter("s.Z_PK", table: source.table) else { return }
        let statement = try connection.prepare(
            "SELECT s.Z_PK, s.Z_ENT, s.\(key), d.Z_PK, d.Z_ENT"
                + " FROM \(quoted(source.table)) AS s LEFT JOIN \(quoted(destination.table)) AS d"
                + " ON d.Z_PK = s.\(key)"
                + " WHERE s.Z_ENT IN (\(marks(source.treeNumbers.count))) AND s.\(key) IS NOT NULL"
                + " AND (d.Z_PK IS NULL OR d.Z_ENT IS NULL"
                + " OR d.Z_ENT NOT IN (\(marks(destination.treeNumbers.count))))"
                + scope.sql + " ORDER BY s.Z_PK")
        try statement.bind(
            bound(source.treeNumbers) + bound(destination.treeNumbers) + scope.values)
        while try statement.step() {
            let row = statement.int64(at: 0)
            let entity = name(of: statement.int64(at: 1), or: source.name)
            let target = statement.int64(at: 2)
            let place = "\(source.table).\(columns.foreignKey) = \(target)"
            if statement.isNull(at: 3) {
                report(
                    .missingDestination, entity, relationship.name, row,
                    "\(place) names no row of \(destination.table)")
            } else {
                let found =
                    statement.isNull(at: 4)
                    ? "a row without Z_ENT"
                    : name(of: statement.int64(at: 4), or: "Z_ENT \(statement.int64(at: 4))")
                report(
                    .wrongDestinationEntity, entity, relationship.name, row,
                    "\(place) names \(found), not a \(destination.name)")
            }
        }
    }

    /// The `Z<n>_` column holds the `Z_ENT` of the row the key names.
    private mutating func checkEntityColumn(
        _ relationship: Relationship, _ foreignKey: String, _ entityColumn: String,
        from source: StoreMapping.EntityMapping, to destination: StoreMapping.EntityMapping
    ) throws {
        guard let scope = writtenFilter("s.Z_PK", table: source.table) else { return }
        let statement = try connection.prepare(
            "SELECT s.Z_PK, s.Z_ENT, s.\(quoted(entityColumn)), d.Z_ENT"
                + " FROM \(quoted(source.table)) AS s JOIN \(quoted(destination.table)) AS d"
                + " ON d.Z_PK = s.\(quoted(foreignKey))"
                + " WHERE s.Z_ENT IN (\(marks(source.treeNumbers.count)))"
                + " AND s.\(quoted(entityColumn)) IS NOT d.Z_ENT" + scope.sql + " ORDER BY s.Z_PK")
        try statement.bind(bound(source.treeNumbers) + scope.values)
        while try statement.step() {
            let stored = statement.isNull(at: 2) ? "NULL" : String(statement.int64(at: 2))
            let actual = statement.isNull(at: 3) ? "NULL" : String(statement.int64(at: 3))
            report(
                .entityColumnMismatch, name(of: statement.int64(at: 1), or: source.name),
                relationship.name, statement.int64(at: 0),
                "\(source.table).\(entityColumn) is \(stored)"
                    + " but the destination's Z_ENT is \(actual)")
        }
    }

    /// If A.b = B then B.a = A, for a one-to-one pair with keys on both sides.
    private mutating func checkOneToOne(
        _ relationship: Relationship, _ inverse: String, _ foreignKey: String, _ backKey: String,
        from source: StoreMapping.EntityMapping, to destination: StoreMapping.EntityMapping
    ) throws {
        guard let scope = writtenFilter("s.Z_PK", table: source.table) else { return }
        let statement = try connection.prepare(
            "SELECT s.Z_PK, s.Z_ENT, s.\(quoted(foreignKey)), d.\(quoted(backKey)), d.Z_ENT"
                + " FROM \(quoted(source.table)) AS s JOIN \(quoted(destination.table)) AS d"
                + " ON d.Z_PK = s.\(quoted(foreignKey))"
                + " WHERE s.Z_ENT IN (\(marks(source.treeNumbers.count)))"
                + " AND d.Z_ENT IN (\(marks(destination.treeNumbers.count)))"
                + " AND d.\(quoted(backKey)) IS NOT s.Z_PK" + scope.sql + " ORDER BY s.Z_PK")
        try statement.bind(
            bound(source.treeNumbers) + bound(destination.treeNumbers) + scope.values)
        while try statement.step() {
            let row = statement.int64(at: 0)
            let entity = name(of: statement.int64(at: 1), or: source.name)
            let target =
                "\(name(of: statement.int64(at: 4), or: destination.name))/p\(statement.int64(at: 2))"
            // The other side's key names a row of the source's table.
            let back = statement.isNull(at: 3) ? "nil" : "\(source.name)/p\(statement.int64(at: 3))"
            let column = statement.isNull(at: 3) ? "NULL" : String(statement.int64(at: 3))
            report(
                .oneToOneMismatch, entity, relationship.name, row,
                "\(relationship.name) → \(target), but \(target).\(inverse) is \(back)"
                    + " (\(source.table).\(foreignKey) = \(statement.int64(at: 2)),"
                    + " \(destination.table).\(backKey) is \(column))")
        }
    }

    /// A required to-one holds a key; an ordered to-many's member (this
    /// to-one its inverse) has its position.
    private mutating func checkRequiredAndPosition(
        _ relationship: Relationship, _ columns: StoreMapping.ToOneMapping,
        of source: StoreMapping.EntityMapping
    ) throws {
        let key = quoted(columns.foreignKey)
        var conditions: [(RelationshipProblem.Kind, String, String)] = []
        if !relationship.isOptional {
            conditions.append(
                (.missingRequired, "s.\(key) IS NULL", "\(relationship.name) is required but nil"))
        }
        if let order = columns.orderColumn {
            conditions.append(
                (
                    .missingPosition, "s.\(key) IS NOT NULL AND s.\(quoted(order)) IS NULL",
                    "\(source.table).\(order) holds no position in the ordered to-many"
                ))
        }
        for (kind, condition, message) in conditions {
            let statement = try connection.prepare(
                "SELECT s.Z_PK, s.Z_ENT FROM \(quoted(source.table)) AS s"
                    + " WHERE s.Z_ENT IN (\(marks(source.treeNumbers.count))) AND \(condition)"
                    + " ORDER BY s.Z_PK")
            try statement.bind(bound(source.treeNumbers))
            while try statement.step() {
                report(
                    kind, name(of: statement.int64(at: 1), or: source.name), relationship.name,
                    statement.int64(at: 0), message)
            }
        }
    }

    /// A to-many's count keeps `optional`, `minCount` and `maxCount`.
    private mutating func checkCount(
        _ relationship: Relationship, _ mapping: StoreMapping.ToManyMapping,
        of source: StoreMapping.EntityMapping, to destination: StoreMapping.EntityMapping
    ) throws {
        let minimum = max(relationship.isOptional ? 0 : 1, relationship.minCount)
        let maximum = relationship.maxCount
        guard minimum > 0 || maximum > 0 else { return }
        let counted: String
        switch mapping {
        case .inverseForeignKey(let table, let column, _):
            counted =
                "SELECT count(*) FROM \(quoted(table)) AS d WHERE d.\(quoted(column)) = s.Z_PK"
                + " AND d.Z_ENT IN (\(marks(destination.treeNumbers.count)))"
        case .joinTable(let table, let sourceColumn, _, _):
            counted =
                "SELECT count(*) FROM \(quoted(table)) AS j WHERE j.\(quoted(sourceColumn)) = s.Z_PK"
        }
        var numbers: [Int] = []
        if case .inverseForeignKey = mapping { numbers = destination.treeNumbers }
        let statement = try connection.prepare(
            "SELECT Z_PK, Z_ENT, n FROM (SELECT s.Z_PK, s.Z_ENT, (\(counted)) AS n"
                + " FROM \(quoted(source.table)) AS s"
                + " WHERE s.Z_ENT IN (\(marks(source.treeNumbers.count))))"
                + " WHERE n < ? OR (? > 0 AND n > ?) ORDER BY Z_PK")
        try statement.bind(
            bound(numbers) + bound(source.treeNumbers) + bound([minimum, maximum, maximum]))
        while try statement.step() {
            let count = statement.int64(at: 2)
            let message =
                count < minimum
                ? "\(relationship.name) holds \(count) objects, at least \(minimum) required"
                : "\(relationship.name) holds \(count) objects, at most \(maximum) allowed"
            report(
                .countOutOfRange, name(of: statement.int64(at: 1), or: source.name),
                relationship.name, statement.int64(at: 0), message)
        }
    }

    /// Every key in `column` of a join table names a row of `destination`'s
    /// tree; reported against the relationship of `owner` whose destinations
    /// the column holds, keyed by the owner's key in `ownerColumn`.
    private mutating func checkJoinColumn(
        _ table: String, _ column: String, pointingAt destination: StoreMapping.EntityMapping,
        owner: String, _ property: String, ownerColumn: String
    ) throws {
        guard checkedJoinColumns.insert(table + "." + column).inserted else { return }
        // Reported against the owner's row: the owner's written rows.
        guard
            let scope = writtenFilter(
                "j.\(quoted(ownerColumn))", table: mapping.entity(named: owner)?.table ?? "")
        else { return }
        let statement = try connection.prepare(
            "SELECT j.\(quoted(ownerColumn)), j.\(quoted(column)), d.Z_PK, d.Z_ENT"
                + " FROM \(quoted(table)) AS j LEFT JOIN \(quoted(destination.table)) AS d"
                + " ON d.Z_PK = j.\(quoted(column))"
                + " WHERE (j.\(quoted(column)) IS NULL OR d.Z_PK IS NULL OR d.Z_ENT IS NULL"
                + " OR d.Z_ENT NOT IN (\(marks(destination.treeNumbers.count))))" + scope.sql
                + " ORDER BY j.\(quoted(ownerColumn)), j.\(quoted(column))")
        try statement.bind(bound(destination.treeNumbers) + scope.values)
        while try statement.step() {
            let row: Int64? = statement.isNull(at: 0) ? nil : statement.int64(at: 0)
            let key = statement.isNull(at: 1) ? "NULL" : String(statement.int64(at: 1))
            let place = "\(table).\(column) = \(key)"
            if statement.isNull(at: 2) {
                report(
                    .missingDestination, owner, property, row,
                    "\(place) names no row of \(destination.table)")
            } else {
                let found =
                    statement.isNull(at: 3)
                    ? "a row without Z_ENT"
                    : name(of: statement.int64(at: 3), or: "Z_ENT \(statement.int64(at: 3))")
                report(
                    .wrongDestinationEntity, owner, property, row,
                    "\(place) names \(found), not a \(destination.name)")
            }
        }
    }
}
