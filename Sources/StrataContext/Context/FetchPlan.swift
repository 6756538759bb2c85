import Foundation
import StrataCore
import StrataQuery
import StrataSchema
import StrataStore

/// A fetch request made ready to run on one context: its SQL (with joins,
/// conditions and order), its bound values, and the same predicate and
/// order for the objects the context changed in memory.
struct FetchPlan {
    let description: EntityDescription
    /// The entities whose objects are included.
    let names: Set<String>
    /// The predicate, with the request's equality conditions folded in.
    /// (Set anew, with ``arguments``, when a cached plan serves a request
    /// of the same shape, see ``FetchPlanCache``.)
    var predicate: FetchPredicate?
    /// The sort keys, with their key paths split.
    let sorts: [(path: [String], ascending: Bool, comparison: SortDescriptor.StringComparison)]
    /// The sort keys' SQL expressions over `t0` and their attributes, in
    /// order (the keyset pages of ``Context/fetchPage(_:from:limit:)``).
    let sortExpressions: [(expression: String, attribute: Attribute)]
    /// The read of the rows, in order (the sort keys, then the key).
    let query: RowQuery
    /// ``query``'s SQL, written once: the fetch every plan runs.
    let select: CompiledRowQuery
    /// The values bound to the queries' `?`, in order (the page's limit
    /// and offset after them).
    var arguments: [SQLiteValue]

    init(_ request: FetchRequest, context: Context) throws {
        let description = try context.description(of: request.entityName)
        self.description = description
        let numbers =
            request.includesSubentities
            ? description.mapping.treeNumbers : [description.mapping.number]
        names = Set(numbers.compactMap { context.namesByNumber[$0] })

        if let predicate = request.predicate {
            // Keys and types are checked against the model before anything runs.
            try predicate.check(
                entity: description.name, model: context.model, format: request.predicateFormat)
        }
        for key in request.conditions.keys.sorted() {
            // Unknown keys are reported as before predicates existed.
            _ = try description.attribute(key)
        }
        predicate = FetchPlan.predicate(of: request)

        var compiler = try PredicateSQLCompiler(mapping: context.mapping, entity: description.name)
        if let text = request.predicate {
            let format = request.predicateFormat
            compiler.predicateTextProvider = { format ?? text.description }
        }
        let condition = try predicate.map { try compiler.condition($0) }
        var order: [String] = []
        var sortExpressions: [(expression: String, attribute: Attribute)] = []
        var sorts:
            [(path: [String], ascending: Bool, comparison: SortDescriptor.StringComparison)] =
                []
        for sort in request.sortDescriptors {
            let (expression, attribute): (String, Attribute)
            do {
                (expression, attribute) = try compiler.attributeExpression(keyPath: sort.key)
            } catch let error as FetchPredicateError {
                // The error quotes the sort key, with a caret under the column.
                let quoted = FetchPredicateError(
                    error.code, predicate: sort.key, column: error.column, message: error.message)
                throw ContextError(
                    .unknownProperty, "cannot sort \(description.name) by '\(sort.key)': \(quoted)")
            }
            sortExpressions.append((expression, attribute))
            let isText = attribute.type == .string || attribute.type == .uri
            let direction = sort.ascending ? "ASC" : "DESC"
            switch (sort.comparison, isText) {
            case (.caseInsensitive, true):
                order.append(
                    "strata_fold(\(expression), \(StringOptions.caseInsensitive.rawValue))"
                        + " \(direction)")
            case (.localized, true):
                order.append("\(expression) COLLATE strata_localized \(direction)")
            default:
                order.append("\(expression) \(direction)")
            }
            sorts.append(
                (sort.key.split(separator: ".").map(String.init), sort.ascending, sort.comparison))
        }
        self.sorts = sorts
        self.sortExpressions = sortExpressions

        var query = RowQuery(description.name, description.selectColumns)
        query.entities = request.includesSubentities ? .tree : .exactly
        query.from = compiler.fromClause
        if let condition { query.filters = [.compiled(condition)] }
        query.order = order
        self.query = query
        select = try context.rowReader.compile(query)
        arguments = compiler.arguments
    }

    /// ``query`` through `LIMIT ? OFFSET ?`, bound after ``arguments``.
    var pageQuery: RowQuery {
        var page = query
        page.pagesByParameters = true
        return page
    }

    /// `COUNT(*)` of ``query``'s rows.
    var countQuery: RowQuery {
        var count = query
        count.columns = [.count]
        count.order = []
        count.inKeyOrder = false
        return count
    }

    /// The request's predicate with its equality conditions folded in (by
    /// key), nil when it has neither.
    static func predicate(of request: FetchRequest) -> FetchPredicate? {
        guard !request.conditions.isEmpty else { return request.predicate }
        var parts: [FetchPredicate] = request.predicate.map { [$0] } ?? []
        for (key, value) in request.conditions.sorted(by: { $0.key < $1.key }) {
            parts.append(
                .comparison(
                    Comparison(
                        left: .keyPath([key], column: 1), op: .equal,
                        right: .value(value.map(PredicateValue.init) ?? .null))))
        }
        return parts.count == 1 ? parts[0] : .and(parts)
    }

    /// Whether `object` passes the predicate, judged on its in-memory values.
    package func matches(_ object: ManagedObject) throws -> Bool {
        guard let predicate else { return true }
        return try predicate.evaluate(with: object)
    }

    /// Orders two objects as the SQL does: the sort keys, then the key.
    package func compare(_ lhs: ManagedObject, _ rhs: ManagedObject) throws -> Int {
        for sort in sorts {
            let left = try FetchPlan.value(at: sort.path, of: lhs)
            let right = try FetchPlan.value(at: sort.path, of: rhs)
            var order: Int
            switch (sort.comparison, left, right) {
            case (.caseInsensitive, .string(let a)?, .string(let b)?):
                order = AttributeValue.compare(
                    .string(PredicateStringFolding.fold(a, .caseInsensitive)),
                    .string(PredicateStringFolding.fold(b, .caseInsensitive)))
            case (.localized, .string(let a)?, .string(let b)?):
                order = PredicateSQLFunctions.localizedCompare(a, b)
            default:
                order = AttributeValue.compare(left, right)
            }
            if order != 0 { return sort.ascending ? order : -order }
        }
        // Saved objects by primary key; unsaved ones after, in insert order.
        let a = lhs.objectID.key
        let b = rhs.objectID.key
        if a.magnitude != b.magnitude { return a.magnitude < b.magnitude ? -1 : 1 }
        return a == b ? 0 : (a > b ? -1 : 1)
    }

    /// The value at a key path through to-one relationships; nil when a
    /// step has no object.
    package static func value(at path: [String], of object: ManagedObject) throws -> AttributeValue?
    {
        var current = object
        for key in path.dropLast() {
            guard let next = try current.object(forKey: key) else { return nil }
            current = next
        }
        guard let last = path.last else { return nil }
        return try current.value(forKey: last)
    }
}
