import StrataCore
import StrataSchema

/// Where each entity and property of a model lives in one actual store file,
/// read from the file itself rather than computed.
///
/// Stores Core Data wrote keep its own entity numbers (`Z_PRIMARYKEY`) and
/// may name join tables differently from today's rules (older frameworks
/// took the earlier name of a reflexive pair), so readers look names up in
/// the database as coredata-format.md §1.5 advises. The computed
/// ``StoreLayout`` supplies the first guess for every name; the file decides.
public struct StoreMapping: Sendable {
    /// One entity's place in the store.
    public struct EntityMapping: Sendable {
        /// The entity's name.
        public var name: String
        /// `Z_ENT` as this store numbers the entity.
        public var number: Int
        /// The store's numbers of the entity and all its subentities.
        public var treeNumbers: [Int]
        /// The table holding the entity's rows.
        public var table: String
        /// Column of each stored attribute that the table has.
        public var attributeColumns: [String: String]
        /// Columns of each to-one relationship that the table has.
        public var toOne: [String: ToOneMapping]
        /// How each to-many relationship is read.
        public var toMany: [String: ToManyMapping]

        /// Every stored property (the memberwise initializer, for the other layers).
        package init(
            name: String, number: Int, treeNumbers: [Int], table: String,
            attributeColumns: [String: String], toOne: [String: ToOneMapping],
            toMany: [String: ToManyMapping]
        ) {
            self.name = name
            self.number = number
            self.treeNumbers = treeNumbers
            self.table = table
            self.attributeColumns = attributeColumns
            self.toOne = toOne
            self.toMany = toMany
        }
    }

    /// The columns of a to-one relationship.
    public struct ToOneMapping: Sendable {
        /// The foreign key column.
        public var foreignKey: String
        /// The `Z<n>_` column with the destination's `Z_ENT`, when present.
        public var entityColumn: String?
        /// The `Z_FOK_` column with the position in the inverse's ordered set.
        public var orderColumn: String?
    }

    /// How a to-many relationship's destinations are found.
    public enum ToManyMapping: Sendable {
        /// `SELECT Z_PK, Z_ENT` of the destinations of one owner (bound as the
        /// only parameter), in stored order (`Z_FOK_` ascending) when ordered,
        /// otherwise by key; `destinationTable` is the destination's table.
        public func destinationsSQL(destinationTable: String) -> String {
            switch self {
            case .inverseForeignKey(let table, let column, let order):
                let ordering = order.map { "\(SQLiteIdentifier.quoted($0)), " } ?? ""
                return "SELECT Z_PK, Z_ENT FROM \(SQLiteIdentifier.quoted(table))"
                    + " WHERE \(SQLiteIdentifier.quoted(column)) = ? ORDER BY \(ordering)Z_PK"
            case .joinTable(let table, let source, let target, let order):
                let ordering = order.map { "j.\(SQLiteIdentifier.quoted($0)), " } ?? ""
                return "SELECT d.Z_PK, d.Z_ENT FROM \(SQLiteIdentifier.quoted(table)) AS j"
                    + " JOIN \(SQLiteIdentifier.quoted(destinationTable)) AS d"
                    + " ON d.Z_PK = j.\(SQLiteIdentifier.quoted(target))"
                    + " WHERE j.\(SQLiteIdentifier.quoted(source)) = ? ORDER BY \(ordering)d.Z_PK"
            }
        }

        /// Through the inverse to-one's foreign key in the destination table.
        case inverseForeignKey(table: String, column: String, orderColumn: String?)
        /// Through a join table.
        case joinTable(
            table: String, sourceColumn: String, destinationColumn: String, orderColumn: String?)
    }

    /// The model the mapping is for.
    public let model: Model
    /// Every entity of the model, by name.
    public let entities: [String: EntityMapping]

    /// Maps `model` onto the tables of `store`.
    ///
    /// - Throws: ``StoreError`` (`schemaMismatch`) when an entity of the
    ///   model has no row in `Z_PRIMARYKEY` or no table.
    public init(model: Model, store: Store) throws {
        try self.init(
            model: model, connection: store.connection,
            numbers: Dictionary(store.entityRecords.map { ($0.name, $0.number) }) { first, _ in
                first
            }, path: store.path)
    }

    /// Maps `model` onto the tables of the database behind `connection`,
    /// whose entity numbers are read from its `Z_PRIMARYKEY` (a store being
    /// migrated, opened as a plain connection).
    ///
    /// - Throws: ``StoreError`` (`schemaMismatch`) as ``init(model:store:)``.
    package init(model: Model, connection: Connection, path: String) throws {
        var numbers: [String: Int] = [:]
        for record in try KeyAllocator.entityRecords(on: connection, path: path)
        where numbers[record.name] == nil {
            numbers[record.name] = record.number
        }
        try self.init(model: model, connection: connection, numbers: numbers, path: path)
    }

    private init(
        model: Model, connection: Connection, numbers: [String: Int], path: String
    ) throws {
        self.model = model
        let layout = StoreLayout(model: model)
        var tableColumns: [String: Set<String>] = [:]
        func columns(of table: String) throws -> Set<String> {
            if let known = tableColumns[table] { return known }
            let names = Set(try connection.columns(ofTable: table).map(\.name))
            tableColumns[table] = names
            return names
        }
        let tables = Set(try connection.tableNames())

        var entities: [String: EntityMapping] = [:]
        for entityLayout in layout.entities {
            guard let number = numbers[entityLayout.name] else {
                throw StoreError(
                    .schemaMismatch, path: path,
                    message: "entity \(entityLayout.name) is not in Z_PRIMARYKEY")
            }
            guard tables.contains(entityLayout.tableName) else {
                throw StoreError(
                    .schemaMismatch, path: path,
                    message: "entity \(entityLayout.name) has no table \(entityLayout.tableName)")
            }
            let present = try columns(of: entityLayout.tableName)
            var mapping = EntityMapping(
                name: entityLayout.name, number: number,
                treeNumbers: entityLayout.treeNumbers.compactMap { number in
                    numbers[layout.entities[number - 1].name]
                },
                table: entityLayout.tableName,
                attributeColumns: entityLayout.attributeColumns.filter {
                    present.contains($0.value)
                },
                toOne: [:], toMany: [:])
            for (name, columns) in entityLayout.toOneColumns
            where present.contains(columns.foreignKey) {
                mapping.toOne[name] = ToOneMapping(
                    foreignKey: columns.foreignKey,
                    entityColumn: columns.entityNumber.flatMap { present.contains($0) ? $0 : nil },
                    orderColumn: columns.order.flatMap { present.contains($0) ? $0 : nil })
            }
            entities[entityLayout.name] = mapping
        }

        // To-many relationships, now that every table is known.
        for (entityName, var mapping) in entities {
            for relationship in model.allRelationships(of: entityName)
            where relationship.isToMany && !relationship.isTransient {
                if !relationship.hasInverse {
                    if entities[relationship.destination] != nil,
                        let join = try StoreMapping.oneSidedJoinTable(
                            for: relationship, of: entityName, in: model, numbers: numbers,
                            tables: tables, columns: columns)
                    {
                        mapping.toMany[relationship.name] = join
                    }
                    continue
                }
                guard let destination = entities[relationship.destination],
                    let inverse = model.allRelationships(of: relationship.destination)
                        .first(where: { $0.name == relationship.inverse })
                else { continue }
                if !inverse.isToMany {
                    if let key = destination.toOne[inverse.name] {
                        mapping.toMany[relationship.name] = .inverseForeignKey(
                            table: destination.table, column: key.foreignKey,
                            orderColumn: key.orderColumn)
                    }
                } else if let join = try StoreMapping.joinTable(
                    for: relationship, of: entityName, in: model, inverse: inverse,
                    numbers: numbers,
                    tables: tables, columns: columns)
                {
                    mapping.toMany[relationship.name] = join
                }
            }
            entities[entityName] = mapping
        }
        self.entities = entities
    }

    /// The mapping of the entity named `name`.
    public func entity(named name: String) -> EntityMapping? {
        entities[name]
    }

    /// Finds the join table of a many-to-many pair by name, trying the name
    /// after either side (older frameworks named reflexive pairs after the
    /// alphabetically earlier side), and tells its columns apart by the
    /// relationship names in them.
    private static func joinTable(
        for relationship: Relationship, of entityName: String, in model: Model,
        inverse: Relationship,
        numbers: [String: Int], tables: Set<String>, columns: (String) throws -> Set<String>
    ) throws -> ToManyMapping? {
        // A subentity inherits the pair's columns, which carry the number of
        // the entity declaring the relationship.
        let owner = declaringEntity(of: relationship, from: entityName, in: model)
        let declaring = numbers[owner] ?? 0
        let destination = numbers[relationship.destination] ?? 0
        // Whichever side the table is named after, our keys sit in
        // Z_<ours><INVERSE> and the destination's in Z_<theirs><NAME>.
        let source = "Z_\(declaring)\(inverse.name.uppercased())"
        let target = "Z_\(destination)\(relationship.name.uppercased())"
        let candidates = [
            "Z_\(declaring)\(relationship.name.uppercased())",
            "Z_\(destination)\(inverse.name.uppercased())",
        ]
        for table in candidates where tables.contains(table) {
            let present = try columns(table)
            guard let sourceColumn = matchColumn(source, in: present),
                let targetColumn = matchColumn(target, in: present), sourceColumn != targetColumn
            else { continue }
            let order = "Z_FOK_" + targetColumn.dropFirst(2)
            return .joinTable(
                table: table, sourceColumn: sourceColumn, destinationColumn: targetColumn,
                orderColumn: present.contains(order) ? order : nil)
        }
        return nil
    }

    /// The entity that declares `relationship`: `entityName` or the
    /// ancestor it inherits the relationship from.
    private static func declaringEntity(
        of relationship: Relationship, from entityName: String, in model: Model
    ) -> String {
        ([model.entity(named: entityName)] + model.ancestors(of: entityName))
            .compactMap { $0 }
            .first { $0.relationships.contains { $0.name == relationship.name } }?.name
            ?? entityName
    }

    /// Finds the join table of a to-many without an inverse by name
    /// (`Z_<ent><NAME>`, unverified layout, see `StoreLayout.joinTables`):
    /// its own keys in `Z_<ent><ENTITY>`, the destination's in
    /// `Z_<destEnt><NAME>`, either perhaps with a digit suffix.
    private static func oneSidedJoinTable(
        for relationship: Relationship, of entityName: String, in model: Model,
        numbers: [String: Int], tables: Set<String>, columns: (String) throws -> Set<String>
    ) throws -> ToManyMapping? {
        let owner = declaringEntity(of: relationship, from: entityName, in: model)
        let declaring = numbers[owner] ?? 0
        let destination = numbers[relationship.destination] ?? 0
        let table = "Z_\(declaring)\(relationship.name.uppercased())"
        guard tables.contains(table) else { return nil }
        let present = try columns(table)
        guard
            let sourceColumn = matchColumn("Z_\(declaring)\(owner.uppercased())", in: present),
            let targetColumn = matchColumn(
                "Z_\(destination)\(relationship.name.uppercased())", in: present),
            sourceColumn != targetColumn
        else { return nil }
        let order = "Z_FOK_" + targetColumn.dropFirst(2)
        return .joinTable(
            table: table, sourceColumn: sourceColumn, destinationColumn: targetColumn,
            orderColumn: present.contains(order) ? order : nil)
    }

    /// `base`, or `base` with a digit suffix (join-column names share one
    /// namespace, §1.5), as present in `columns`.
    private static func matchColumn(_ base: String, in columns: Set<String>) -> String? {
        if columns.contains(base) { return base }
        return columns.sorted().first { column in
            column.hasPrefix(base) && !column.dropFirst(base.count).isEmpty
                && column.dropFirst(base.count).allSatisfy(\.isNumber)
        }
    }
}
