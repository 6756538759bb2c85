// MARK: - Reading operands from the subject

extension PredicateEvaluator {
    /// One side of a direct comparison as a single value. A key path that
    /// crosses a to-many relationship gives an array of its values (for
    /// `CONTAINS` membership); one that ends at a to-one gives the object.
    package func resolve(
        _ expression: ExpressionNode, _ subject: any PredicateSubject,
        _ comparison: Comparison
    ) throws -> PredicateValue {
        switch expression {
        case .value(let value, _):
            return value
        case .unary, .binary, .function:
            throw error(
                .invalidOperand, expression.column,
                expression.refusalInPredicates ?? "not an operand")
        case .list(let items):
            return .array(try items.map { try resolve($0, subject, comparison) })
        case .variable(let name, let column):
            throw error(.unboundVariable, column, "no value for variable $\(name)")
        case .count(let path, let column):
            let destinations = try follow(path, from: subject, column: column, counting: true)
            return .integer(Int64(destinations.values.count))
        case .keyPath(let path, let column):
            let result = try follow(path, from: subject, column: column, counting: false)
            if result.crossesToMany { return .array(result.values) }
            return result.values.first ?? .null
        }
    }

    /// The values a quantified comparison ranges over.
    func elementsOf(
        _ expression: ExpressionNode, _ subject: any PredicateSubject,
        _ comparison: Comparison
    ) throws -> [PredicateValue] {
        guard case .keyPath(let path, let column) = expression else {
            let value = try resolve(expression, subject, comparison)
            if case .array(let items) = value { return items }
            return [value]
        }
        return try follow(path, from: subject, column: column, counting: false).values
    }

    /// Follows `path` from `subject`: every value at its end (objects for
    /// relationships), and whether a to-many relationship was crossed. A
    /// missing to-one destination gives one nil value, or nothing to count
    /// when `counting` (then the values are the destinations, all nil).
    func follow(
        _ path: [String], from subject: any PredicateSubject, column: Int, counting: Bool
    ) throws -> (values: [PredicateValue], crossesToMany: Bool) {
        // Each entry is a subject reached so far, or nil for a missing to-one.
        var subjects: [(any PredicateSubject)?] = [subject]
        var crossesToMany = false
        func id(_ subject: (any PredicateSubject)?) -> PredicateValue {
            subject?.predicateObjectID.map(PredicateValue.object) ?? .null
        }
        for (offset, key) in path.enumerated() {
            if offset == path.count - 1 && !counting {
                var values: [PredicateValue] = []
                for current in subjects {
                    guard let current else {
                        values.append(.null)
                        continue
                    }
                    switch try kind(of: key, on: current, column: column) {
                    case .attribute:
                        values.append(
                            try read(column) { try current.predicateValue(forKey: key) } ?? .null)
                    case .toOne:
                        values.append(
                            id(try read(column) { try current.predicateTarget(forKey: key) }))
                    case .toMany:
                        crossesToMany = true
                        values += try read(column) { try current.predicateTargets(forKey: key) }
                            .map(id)
                    }
                }
                return (values, crossesToMany)
            }
            var next: [(any PredicateSubject)?] = []
            for current in subjects {
                guard let current else {
                    if !counting { next.append(nil) }
                    continue
                }
                switch try kind(of: key, on: current, column: column) {
                case .attribute:
                    throw error(
                        .invalidOperand, column,
                        "'\(key)' is an attribute; a key path continues, and @count counts, "
                            + "only through relationships")
                case .toOne:
                    let target = try read(column) { try current.predicateTarget(forKey: key) }
                    if target != nil || !counting { next.append(target) }
                case .toMany:
                    crossesToMany = true
                    next += try read(column) { try current.predicateTargets(forKey: key) }
                        .map { $0 }
                }
            }
            subjects = next
        }
        return (subjects.map { _ in .null }, crossesToMany)
    }

    private func kind(of key: String, on subject: any PredicateSubject, column: Int) throws
        -> PredicateKeyKind
    {
        do {
            return try subject.predicateKeyKind(forKey: key)
        } catch {
            throw self.error(.unknownKey, column, "the object has no key '\(key)'")
        }
    }

    /// Runs a read of the subject, reporting its failure as a predicate error.
    private func read<T>(_ column: Int, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as FetchPredicateError {
            throw error
        } catch {
            throw self.error(.invalidOperand, column, "reading the object failed: \(error)")
        }
    }
}
