import StrataCore
import StrataQuery
import StrataSchema

/// The fetch plans a context has made, by the shape of their request, so a
/// fetch repeated with other numbers (`date == %@`, one day after another)
/// binds them to the SQL made the first time instead of checking and
/// compiling its predicate again.
///
/// A shape is the request without its limit and offset and with each number
/// of its predicate (integer, real or date, see
/// ``FetchPredicate/replacingNumbers(_:)``) zeroed; every other value (strings,
/// booleans, nil, objects, the conditions) stays in it, so requests of one
/// shape differ only in numbers. Nothing a plan depends on changes during a
/// context's life (its model, mapping and entity descriptions are fixed),
/// so entries are never stale.
///
/// A plan is reused only when it was proven to take its numbers as plain
/// bound values: when first made, the request is compiled a second time
/// with a distinct stand-in for each number, and the two must give the same
/// SQL, each stand-in's `?` must hold the real number there, and every other
/// `?` the same value. Shapes that fail are remembered and always compiled.
struct FetchPlanCache {
    /// How many shapes are kept; past this the cache starts again empty.
    static let capacity = 64
    /// Predicates with more numbers are not cached (their stand-ins must
    /// stay distinct).
    static let maxNumbers = 128

    /// What a fetch plan depends on.
    private struct Shape: Hashable {
        var entityName: String
        var includesSubentities: Bool
        /// The predicate with its numbers zeroed.
        var predicate: FetchPredicate?
        var conditions: [String: AttributeValue?]
        var sorts: [SortDescriptor]
    }

    /// One bound value of a cached plan.
    private enum Slot {
        /// The same for every request of the shape.
        case constant(SQLiteValue)
        /// The predicate's number at this position (in visiting order).
        case number(Int)
    }

    private enum Entry {
        /// A plan with the slots its arguments are made from.
        case plan(FetchPlan, slots: [Slot])
        /// A shape whose plan depends on more than its numbers' positions.
        case uncached
    }

    private var entries: [Shape: Entry] = [:]

    /// The number of shapes cached (reused plans and uncached shapes).
    var count: Int { entries.count }

    /// The number of shapes whose plan is reused.
    var reusedCount: Int {
        entries.values.count { if case .plan = $0 { true } else { false } }
    }

    /// The plan for `request` on `context`: a cached one, rebound to the
    /// request's numbers, or a new one (then cached).
    ///
    /// - Throws: as ``FetchPlan/init(_:context:)``; nothing is cached then.
    package mutating func plan(for request: FetchRequest, context: Context) throws -> FetchPlan {
        var numbers: [PredicateValue] = []
        let zeroed = request.predicate?.replacingNumbers { number in
            numbers.append(number)
            return number.zeroed
        }
        let shape = Shape(
            entityName: request.entityName, includesSubentities: request.includesSubentities,
            predicate: zeroed, conditions: request.conditions, sorts: request.sortDescriptors)
        switch entries[shape] {
        case .plan(var plan, let slots)?:
            var arguments: [SQLiteValue] = []
            arguments.reserveCapacity(slots.count)
            for slot in slots {
                switch slot {
                case .constant(let value):
                    arguments.append(value)
                case .number(let index):
                    // The shape matched, so the value there is a number.
                    arguments.append(
                        PredicateSQLCompiler.sqlValue(ofNumber: numbers[index]) ?? .null)
                }
            }
            plan.predicate = FetchPlan.predicate(of: request)
            plan.arguments = arguments
            return plan
        case .uncached?:
            return try FetchPlan(request, context: context)
        case nil:
            let plan = try FetchPlan(request, context: context)
            if entries.count >= Self.capacity { entries.removeAll() }
            entries[shape] = FetchPlanCache.entry(plan, request, numbers: numbers, context: context)
            return plan
        }
    }

    /// The entry for a plan just made: its arguments as slots, proven by
    /// compiling the request again with stand-ins for its numbers.
    private static func entry(
        _ plan: FetchPlan, _ request: FetchRequest, numbers: [PredicateValue], context: Context
    ) -> Entry {
        guard !numbers.isEmpty else { return .plan(plan, slots: plan.arguments.map(Slot.constant)) }
        guard numbers.count <= maxNumbers else { return .uncached }
        var probeRequest = request
        var position = 0
        probeRequest.predicate = request.predicate?.replacingNumbers { number in
            defer { position += 1 }
            return standIn(for: number, at: position)
        }
        var standIns: [SQLiteValue: Int] = [:]
        for (index, number) in numbers.enumerated() {
            guard
                let value = PredicateSQLCompiler.sqlValue(ofNumber: standIn(for: number, at: index))
            else { return .uncached }
            standIns[value] = index
        }
        guard standIns.count == numbers.count,
            let probe = try? FetchPlan(probeRequest, context: context),
            probe.query == plan.query,
            probe.arguments.count == plan.arguments.count
        else { return .uncached }
        var slots: [Slot] = []
        for (probed, actual) in zip(probe.arguments, plan.arguments) {
            if let index = standIns[probed] {
                guard PredicateSQLCompiler.sqlValue(ofNumber: numbers[index]) == actual else {
                    return .uncached
                }
                slots.append(.number(index))
            } else {
                guard probed == actual else { return .uncached }
                slots.append(.constant(actual))
            }
        }
        return .plan(plan, slots: slots)
    }

    /// A number of the same kind as `number` that no request binds: huge
    /// negative values, distinct for each position.
    private static func standIn(for number: PredicateValue, at position: Int) -> PredicateValue {
        switch number {
        case .integer: .integer(Int64.min / 2 + Int64(position))
        case .real: .real(-1e300 * Double(position + 1))
        default: .date(-1e300 * Double(position + 1))
        }
    }
}

extension PredicateValue {
    /// A number of the same kind with the value 0 (other values unchanged).
    fileprivate var zeroed: PredicateValue {
        switch self {
        case .integer: .integer(0)
        case .real: .real(0)
        case .date: .date(0)
        default: self
        }
    }
}
