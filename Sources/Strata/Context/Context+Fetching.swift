import Foundation

// MARK: - Fetching

extension Context {
    /// The objects matching `request`, with this context's unsaved changes
    /// taken into account: deleted objects are left out, inserted and
    /// updated ones are matched on their current values.
    ///
    /// - Throws: ``ContextError`` for an unknown entity or key; store errors.
    public func fetch(_ request: FetchRequest) throws -> [ManagedObject] {
        let description = try description(of: request.entityName)
        let conditions = try request.conditions.map { key, value in
            (index: try description.attribute(key), value: value)
        }.sorted { $0.index < $1.index }
        let sorts = try request.sortDescriptors.map {
            (index: try description.attribute($0.key), ascending: $0.ascending)
        }
        let numbers = Set(
            request.includesSubentities
                ? description.mapping.treeNumbers : [description.mapping.number])
        let names = Set(numbers.compactMap { namesByNumber[$0] })

        // Changed objects are judged on their in-memory values.
        let changed = (Array(inserted.values) + Array(updated.values))
            .filter { names.contains($0.entityName) }
        let needsMemory =
            !changed.isEmpty || deleted.values.contains { names.contains($0.entityName) }

        var sql = try selectSQL(description, numbers: numbers.sorted())
        var arguments: [SQLiteValue] = numbers.sorted().map { .integer(Int64($0)) }
        for condition in conditions {
            let attribute = description.attributes[condition.index]
            guard let column = description.mapping.attributeColumns[attribute.name] else {
                continue
            }
            if let value = condition.value {
                sql += " AND \(SQLiteIdentifier.quoted(column)) = ?"
                arguments.append(ColumnValueCodec.encode(value, attribute))
            } else {
                sql += " AND \(SQLiteIdentifier.quoted(column)) IS NULL"
            }
        }
        let order = sorts.compactMap { sort in
            description.mapping.attributeColumns[description.attributes[sort.index].name].map {
                "\(SQLiteIdentifier.quoted($0)) \(sort.ascending ? "ASC" : "DESC")"
            }
        }
        sql += " ORDER BY " + (order + ["Z_PK"]).joined(separator: ", ")
        if !needsMemory, request.fetchLimit > 0 || request.fetchOffset > 0 {
            sql += " LIMIT ? OFFSET ?"
            arguments += [
                .integer(Int64(request.fetchLimit > 0 ? request.fetchLimit : -1)),
                .integer(Int64(request.fetchOffset)),
            ]
        }

        var results: [ManagedObject] = []
        var seen: Set<ObjectID> = []
        let statement = try store.connection.cachedStatement(sql)
        try statement.bind(arguments)
        while try statement.step() {
            let object = try materialize(statement, description: description)
            guard !object.isDeleted, !object.hasChanges || matches(object, conditions) else {
                continue
            }
            results.append(object)
            seen.insert(object.objectID)
        }
        guard needsMemory else { return results }

        for object in changed where !seen.contains(object.objectID) && matches(object, conditions) {
            results.append(object)
        }
        results.sort { lhs, rhs in
            for sort in sorts {
                let order = AttributeValue.compare(
                    lhs.state.values[sort.index], rhs.state.values[sort.index])
                if order != 0 { return sort.ascending ? order < 0 : order > 0 }
            }
            return lhs.objectID.key.magnitude < rhs.objectID.key.magnitude
                || (lhs.objectID.key.magnitude == rhs.objectID.key.magnitude
                    && lhs.objectID.key > rhs.objectID.key)
        }
        let start = min(request.fetchOffset, results.count)
        let end =
            request.fetchLimit > 0 ? min(start + request.fetchLimit, results.count) : results.count
        return Array(results[start..<end])
    }

    /// The number of objects `request` would return.
    public func count(_ request: FetchRequest) throws -> Int {
        var unlimited = request
        unlimited.fetchLimit = 0
        unlimited.fetchOffset = 0
        if !hasChanges {
            let description = try description(of: request.entityName)
            if request.conditions.isEmpty {
                let numbers =
                    request.includesSubentities
                    ? description.mapping.treeNumbers : [description.mapping.number]
                let sql =
                    "SELECT COUNT(*) FROM \(SQLiteIdentifier.quoted(description.mapping.table))"
                    + " WHERE Z_ENT IN (\(numbers.map { _ in "?" }.joined(separator: ", ")))"
                let count = try store.connection.scalar(sql, numbers.map { .integer(Int64($0)) })
                return Int(count?.int64Value ?? 0)
            }
        }
        let all = try fetch(unlimited)
        let afterOffset = max(0, all.count - request.fetchOffset)
        return request.fetchLimit > 0 ? min(afterOffset, request.fetchLimit) : afterOffset
    }

    private func matches(
        _ object: ManagedObject, _ conditions: [(index: Int, value: AttributeValue?)]
    ) -> Bool {
        conditions.allSatisfy { object.state.values[$0.index] == $0.value }
    }

    // MARK: - Rows to objects

    /// `SELECT` of every stored column of `description`'s rows of the given
    /// entity numbers (`Z_ENT IN (…)` with one parameter each).
    func selectSQL(_ description: EntityDescription, numbers: [Int]) throws -> String {
        var columns = ["Z_PK", "Z_ENT", "Z_OPT"]
        for attribute in description.attributes {
            columns.append(description.mapping.attributeColumns[attribute.name] ?? "NULL")
        }
        for relationship in description.relationships where !relationship.isToMany {
            if let key = description.mapping.toOne[relationship.name] {
                columns.append(key.foreignKey)
                columns.append(key.entityColumn ?? "NULL")
            } else {
                columns += ["NULL", "NULL"]
            }
        }
        let list = columns.map { $0 == "NULL" ? $0 : SQLiteIdentifier.quoted($0) }.joined(
            separator: ", ")
        return "SELECT \(list) FROM \(SQLiteIdentifier.quoted(description.mapping.table))"
            + " WHERE Z_ENT IN (\(numbers.map { _ in "?" }.joined(separator: ", ")))"
    }

    /// The registered object of the current row, or a new one read from it.
    /// A registered object keeps its in-memory state.
    func materialize(_ row: Statement, description: EntityDescription) throws -> ManagedObject {
        let primaryKey = row.int64(at: 0)
        let entityName = namesByNumber[Int(row.int64(at: 1))] ?? description.name
        let id = ObjectID(entityName: entityName, key: primaryKey)
        if let object = registered(id) { return object }
        // A row of a subentity is read with that subentity's columns.
        let concrete = try self.description(of: entityName)
        guard concrete === description else {
            return try load(concrete, primaryKeys: [primaryKey]).first
                ?? {
                    throw ContextError(
                        .objectNotFound, "\(id) vanished while reading", objects: [id])
                }()
        }
        var state = ObjectState(
            attributeCount: description.attributes.count,
            relationshipCount: description.relationships.count)
        state.version = row.int64(at: 2)
        var column: Int32 = 3
        for (index, attribute) in description.attributes.enumerated() {
            state.values[index] = try ColumnValueCodec.decode(
                row.value(at: column), attribute, store: store, primaryKey: primaryKey)
            column += 1
        }
        for (index, relationship) in description.relationships.enumerated()
        where !relationship.isToMany {
            if !row.isNull(at: column) {
                let destination =
                    row.isNull(at: column + 1)
                    ? relationship.destination
                    : namesByNumber[Int(row.int64(at: column + 1))] ?? relationship.destination
                state.toOne[index] = ObjectID(entityName: destination, key: row.int64(at: column))
            }
            column += 2
        }
        let object = ManagedObject(id: id, description: description, link: link, state: state)
        registry[id] = object
        return object
    }

    /// Reads the rows with `primaryKeys` of `description`'s entity tree.
    func load(_ description: EntityDescription, primaryKeys: [Int64]) throws -> [ManagedObject] {
        let numbers = description.mapping.treeNumbers
        var objects: [ManagedObject] = []
        let sql = try selectSQL(description, numbers: numbers) + " AND Z_PK = ?"
        for key in primaryKeys {
            let statement = try store.connection.cachedStatement(sql)
            try statement.bind(numbers.map { .integer(Int64($0)) } + [.integer(key)])
            if try statement.step() {
                objects.append(try materialize(statement, description: description))
            }
        }
        return objects
    }
}

extension AttributeValue {
    /// Orders two optional values as SQLite would: nil first, then numbers,
    /// then text (byte order), then bytes. Returns -1, 0 or 1.
    static func compare(_ lhs: AttributeValue?, _ rhs: AttributeValue?) -> Int {
        switch (lhs, rhs) {
        case (nil, nil): return 0
        case (nil, _): return -1
        case (_, nil): return 1
        case let (left?, right?):
            if let a = left.numericValue, let b = right.numericValue {
                return a < b ? -1 : (a > b ? 1 : 0)
            }
            if case .string(let a) = left, case .string(let b) = right {
                return a.utf8.lexicographicallyPrecedes(b.utf8) ? -1 : (a == b ? 0 : 1)
            }
            if case .data(let a) = left, case .data(let b) = right {
                return a.lexicographicallyPrecedes(b) ? -1 : (a == b ? 0 : 1)
            }
            if case .uuid(let a) = left, case .uuid(let b) = right {
                return a.uuidString < b.uuidString ? -1 : (a == b ? 0 : 1)
            }
            return left.numericValue != nil ? -1 : 1
        }
    }

    /// The value as a number, for numeric kinds (booleans and dates included).
    var numericValue: Double? {
        switch self {
        case .integer(let number): Double(number)
        case .real(let number): number
        case .boolean(let flag): flag ? 1 : 0
        case .date(let seconds): seconds
        default: nil
        }
    }
}
