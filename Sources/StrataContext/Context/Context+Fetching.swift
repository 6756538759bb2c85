import Foundation
import StrataSchema

// MARK: - Fetching

extension Context {
    /// The objects matching `request`, with this context's unsaved changes
    /// taken into account: deleted objects are left out, inserted and
    /// updated ones are matched and sorted on their current values, and the
    /// limit and offset apply to the merged result.
    ///
    /// Objects the context already holds are returned as they are, not as
    /// their rows now read — Core Data's default too — unless the request
    /// ``FetchRequest/refreshesRefetchedObjects``.
    ///
    /// - Throws: ``FetchPredicateError`` for a predicate that does not fit the
    ///   model (nothing runs then); ``ContextError`` for an unknown entity or
    ///   key; store errors.
    public func fetch(_ request: FetchRequest) throws -> [ManagedObject] {
        var results: [ManagedObject] = []
        if request.fetchLimit > 0 { results.reserveCapacity(min(request.fetchLimit, 1024)) }
        try run(try fetchPlans.plan(for: request, context: self), request) { object in
            results.append(object)
        }
        return results
    }

    /// Calls `body` with each object `request` matches, in order, reading
    /// `batchSize` rows at a time and letting go of the objects of a batch
    /// before reading the next (unless `body` keeps them), so memory does
    /// not grow with the number of matches.
    ///
    /// ```swift
    /// try context.forEach(FetchRequest(entity: "Note"), batchSize: 500) { note in
    ///     total += try note.string("body")?.count ?? 0
    /// }
    /// ```
    ///
    /// `body` may read and change objects but must not save or reset the
    /// context: the store is read while it runs.
    ///
    /// - Throws: as ``fetch(_:)``, or what `body` throws (which stops).
    public func forEach(
        _ request: FetchRequest, batchSize: Int = 1000, _ body: (ManagedObject) throws -> Void
    ) throws {
        let plan = try fetchPlans.plan(for: request, context: self)
        var inBatch = 0
        try run(plan, request) { object in
            try body(object)
            inBatch += 1
            if inBatch >= max(batchSize, 1) {
                inBatch = 0
                registry.purge()
            }
        }
        registry.purge()
    }

    /// The number of objects `request` would return, counted in SQL when
    /// the context has no unsaved changes to objects of the entity.
    ///
    /// - Throws: as ``fetch(_:)``.
    public func count(_ request: FetchRequest) throws -> Int {
        let plan = try fetchPlans.plan(for: request, context: self)
        var total = 0
        if try memoryObjects(plan) == nil {
            let statement = try rowReader.prepare(rowReader.compile(plan.countQuery))
            try statement.bind(plan.arguments)
            total = try statement.step() ? Int(statement.int64(at: 0)) : 0
            statement.reset()
            total = max(0, total - request.fetchOffset)
            return request.fetchLimit > 0 ? min(total, request.fetchLimit) : total
        }
        try run(plan, request) { _ in total += 1 }
        return total
    }

    // MARK: - Running a plan

    /// The changed objects of the plan's entities that match, sorted; nil
    /// when no object of those entities has unsaved changes (the store's
    /// rows are then the whole answer).
    private func memoryObjects(_ plan: FetchPlan) throws -> [ManagedObject]? {
        let changed = (Array(inserted.values) + updated.values.filter { $0.state.hasChanges })
            .filter { plan.names.contains($0.entityName) }
        guard
            !changed.isEmpty
                || deleted.values.contains(where: { plan.names.contains($0.entityName) })
        else { return nil }
        var matching = try changed.filter { try plan.matches($0) }
        var failure: Error?
        matching.sort { lhs, rhs in
            do { return try plan.compare(lhs, rhs) < 0 } catch {
                failure = failure ?? error
                return false
            }
        }
        if let failure { throw failure }
        return matching
    }

    /// Streams the store's rows in order, merged with the changed objects
    /// (which replace their stored rows), through offset and limit.
    private func run(
        _ plan: FetchPlan, _ request: FetchRequest, _ body: (ManagedObject) throws -> Void
    ) throws {
        registry.purgeIfGrown()
        let memory = try memoryObjects(plan)
        var query = plan.select
        var arguments = plan.arguments
        var toSkip = request.fetchOffset
        var remaining = request.fetchLimit > 0 ? request.fetchLimit : Int.max
        if memory == nil, request.fetchLimit > 0 || request.fetchOffset > 0 {
            query = try rowReader.compile(plan.pageQuery)
            arguments += [
                .integer(Int64(request.fetchLimit > 0 ? request.fetchLimit : -1)),
                .integer(Int64(request.fetchOffset)),
            ]
            toSkip = 0
        }
        guard remaining > 0 else { return }
        /// Hands `object` on after the offset; false once the limit is met.
        func emit(_ object: ManagedObject) throws -> Bool {
            if toSkip > 0 {
                toSkip -= 1
                return true
            }
            try body(object)
            remaining -= 1
            return remaining > 0
        }

        let pending = memory ?? []
        var next = 0
        let statement = try rowReader.prepare(query)
        try statement.bind(arguments)
        // Without sort keys the rows come in key order: they are registered
        // as one run instead of being hashed one by one.
        let inKeyOrder = plan.sorts.isEmpty
        if inKeyOrder { registry.beginFetchRun() }
        defer { if inKeyOrder { registry.endFetchRun() } }
        while try statement.step() {
            let (object, isNew) = try materializeRow(
                statement, description: plan.description, fetched: inKeyOrder)
            // Changed objects are judged on their in-memory values instead
            // (an object just read from its row has no changes).
            guard isNew || !object.hasChanges else { continue }
            if !isNew, request.refreshesRefetchedObjects,
                try refetch(object, row: statement, description: plan.description),
                tracksPendingChanges
            {
                pendingChanges.updated.insert(object.objectID)
            }
            while next < pending.count, try plan.compare(pending[next], object) < 0 {
                guard try emit(pending[next]) else { return }
                next += 1
            }
            guard try emit(object) else { return }
        }
        while next < pending.count {
            guard try emit(pending[next]) else { return }
            next += 1
        }
    }
}

extension AttributeValue {
    /// Orders two optional values as SQLite would: nil first, then numbers,
    /// then text (byte order), then bytes. Returns -1, 0 or 1.
    package static func compare(_ lhs: AttributeValue?, _ rhs: AttributeValue?) -> Int {
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
}
