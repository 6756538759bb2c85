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
    /// stored), then the key; its limit and offset are ignored.
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
        var query = plan.query
        var arguments = plan.arguments
        let backwards: Bool
        switch start {
        case .first, .after: backwards = false
        case .last, .before: backwards = true
        }
        let sort = plan.sortExpressions.first
        let ascending = (request.sortDescriptors.first?.ascending ?? true) != backwards
        query.inKeyOrder = false
        query.order =
            (sort.map { ["\($0.expression) \(ascending ? "ASC" : "DESC")"] } ?? [])
            + ["t0.Z_PK \(backwards ? "DESC" : "ASC")"]
        query.limit = max(0, limit)
        switch start {
        case .after(let id), .before(let id):
            let anchor = try object(with: id)
            guard let key = id.primaryKey, plan.names.contains(anchor.entityName) else {
                throw ContextError(
                    .objectNotFound, "\(id) is not one of the request's objects", objects: [id])
            }
            // Rows past the anchor in the direction read: past its value,
            // or at its value and past its key. SQLite sorts NULL first.
            let keyTest = "t0.Z_PK \(backwards ? "<" : ">") ?"
            if let sort {
                let value = try FetchPlan.value(at: plan.sorts[0].path, of: anchor)
                let e = sort.expression
                let stored = ColumnValueCodec.encode(value, sort.attribute)
                if stored == .null {
                    query.filters.append(
                        .compiled(
                            ascending
                                ? "(\(e) IS NOT NULL OR \(keyTest))"
                                : "(\(e) IS NULL AND \(keyTest))"
                        ))
                    arguments.append(.integer(key))
                } else {
                    query.filters.append(
                        .compiled(
                            ascending
                                ? "(\(e) > ? OR (\(e) = ? AND \(keyTest)))"
                                : "(\(e) < ? OR \(e) IS NULL OR (\(e) = ? AND \(keyTest)))"))
                    arguments += [stored, stored, .integer(key)]
                }
            } else {
                query.filters.append(.compiled(keyTest))
                arguments.append(.integer(key))
            }
        case .first, .last:
            break
        }
        var page: [ManagedObject] = []
        let statement = try rowReader.prepare(rowReader.compile(query))
        try statement.bind(arguments)
        while try statement.step() {
            page.append(
                try materializeRow(statement, description: plan.description, fetched: false).0)
        }
        return backwards ? page.reversed() : page
    }
}
