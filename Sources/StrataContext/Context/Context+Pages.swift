import StrataCore
import StrataSchema
import StrataStore

/// Where a keyset page starts or ends: an object of the previous page,
/// the one the page is read after or before (see
/// ``Context/fetchPage(_:from:limit:)``).
package enum FetchPageStart: Hashable, Sendable {
    /// The first page.
    case first
    /// The last page.
    case last
    /// The page that follows the object with this id.
    case after(ObjectID)
    /// The page that precedes the object with this id.
    case before(ObjectID)
}

extension Context {
    /// One page of `request`'s objects, found by keyset rather than by
    /// offset: the rows after (or before) a given object in the request's
    /// order, so that the ten-thousandth page costs what the first does
    /// when an index serves the order.
    ///
    /// The order is the request's first sort descriptor (compared as
    /// stored, NULL first as SQLite sorts it), then the key in the same
    /// direction (a fetch breaks ties by ascending key; pages of a
    /// descending sort list tied objects the other way round); the
    /// request's limit and offset are ignored.
    /// The store's rows alone are read: the context must hold no unsaved
    /// changes (the web view's contexts never change anything).
    ///
    /// - Returns: At most `limit` objects, in the request's order.
    /// - Throws: ``ContextError`` (`objectNotFound`) when the object of
    ///   `start` is not in the store; as ``fetch(_:)`` otherwise.
    package func fetchPage(_ request: FetchRequest, from start: FetchPageStart, limit: Int)
        throws -> [ManagedObject]
    {
        guard request.sortDescriptors.count <= 1,
            request.sortDescriptors.allSatisfy({ $0.comparison == .binary })
        else {
            throw ContextError(
                .invalidFetchRequest, "a keyset page is ordered by one sort key, compared as stored"
            )
        }
        let plan = try FetchPlan(request, context: self)
        let backwards: Bool
        switch start {
        case .first, .after: backwards = false
        case .last, .before: backwards = true
        }
        // The key breaks ties in the sort key's direction, so that an
        // index on the sort key (whose entries are ordered by key within a
        // value) serves every page: a mixed order would sort the table.
        let ascending = (request.sortDescriptors.first?.ascending ?? true) != backwards
        let direction = ascending ? "ASC" : "DESC"
        let past = ascending ? ">" : "<"
        let sort = plan.sortExpressions.first
        var base = plan.query
        base.inKeyOrder = false
        base.order =
            (sort.map { ["\($0.expression) \(direction)"] } ?? []) + ["t0.Z_PK \(direction)"]
        // Each read: extra conditions and their values, in order; a
        // second read continues past the NULLs (SQLite sorts them first).
        var reads: [(condition: String?, values: [SQLiteValue])] = [(nil, [])]
        switch start {
        case .after(let id), .before(let id):
            let anchor = try object(with: id)
            guard let key = id.primaryKey, plan.names.contains(anchor.entityName) else {
                throw ContextError(
                    .objectNotFound, "\(id) is not one of the request's objects", objects: [id])
            }
            let keyTest = "t0.Z_PK \(past) ?"
            guard let sort else {
                reads = [(keyTest, [.integer(key)])]
                break
            }
            let e = sort.expression
            let stored = ColumnValueCodec.encode(
                try FetchPlan.value(at: plan.sorts[0].path, of: anchor), sort.attribute)
            switch (stored == .null, ascending) {
            case (true, true):  // The NULLs after the anchor, then every value.
                reads = [
                    ("\(e) IS NULL AND \(keyTest)", [.integer(key)]), ("\(e) IS NOT NULL", []),
                ]
            case (true, false):  // The NULLs after the anchor, the last rows.
                reads = [("\(e) IS NULL AND \(keyTest)", [.integer(key)])]
            case (false, true):  // Values past the anchor's (NULLs came first).
                reads = [
                    ("\(e) >= ? AND (\(e) > ? OR \(keyTest))", [stored, stored, .integer(key)])
                ]
            case (false, false):  // Values past the anchor's, then the NULLs.
                reads = [
                    ("\(e) <= ? AND (\(e) < ? OR \(keyTest))", [stored, stored, .integer(key)]),
                    ("\(e) IS NULL", []),
                ]
            }
        case .first, .last:
            break
        }
        var page: [ManagedObject] = []
        for read in reads where page.count < limit {
            var query = base
            var arguments = plan.arguments
            if let condition = read.condition {
                query.filters.append(.compiled(condition))
                arguments += read.values
            }
            query.limit = max(0, limit - page.count)
            let statement = try rowReader.prepare(rowReader.compile(query))
            try statement.bind(arguments)
            while try statement.step() {
                page.append(
                    try materializeRow(statement, description: plan.description, fetched: false).0)
            }
        }
        return backwards ? page.reversed() : page
    }
}
