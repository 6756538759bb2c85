import StrataSchema

// MARK: - Comparisons

extension PredicateChecker {
    package func check(_ comparison: Comparison, entity: String) throws {
        let left = try operand(comparison.left, entity: entity, column: comparison.column)
        let right = try operand(comparison.right, entity: entity, column: comparison.column)
        let op = comparison.op
        let opName = op == .equal ? "=" : op.rawValue

        // To-many key paths need a quantifier, @count, or a membership test.
        let membership = op == .contains && !left.isCount && left.kind.isObject
        if comparison.quantifier != .direct {
            guard left.crossesToMany, !left.isCount else {
                throw error(
                    .quantifier, comparison.column,
                    "\(comparison.quantifier.rawValue) needs a key path through a to-many "
                        + "relationship; \(left.spelled) has none")
            }
        } else if left.crossesToMany && !left.isCount && !membership {
            throw error(
                .quantifier, left.column,
                "'\(left.keyPath ?? "")' goes through a to-many relationship: use ANY, ALL or "
                    + "NONE, or @count")
        }
        if right.crossesToMany && !right.isCount {
            throw error(
                .quantifier, right.column,
                "'\(right.keyPath ?? "")' goes through a to-many relationship and cannot be "
                    + "the right side of a comparison")
        }

        if !comparison.options.isEmpty && !left.kind.admitsString && !membership {
            throw error(
                .typeMismatch, left.column,
                "[c] and [d] apply to strings, but \(left.spelled) is \(left.typeName)")
        }

        switch op {
        case .equal, .notEqual:
            try expectComparable(left, right, opName)
        case .less, .lessOrEqual, .greater, .greaterOrEqual:
            try expectComparable(left, right, opName)
            if case .object = left.kind {
                throw error(
                    .typeMismatch, left.column,
                    "\(opName) orders values, but \(left.spelled) is \(left.typeName)")
            }
        case .between:
            if case .collection(let bounds) = right.kind {
                for bound in bounds { try expectComparable(left, right.with(bound), "BETWEEN") }
            }
        case .in:
            switch right.kind {
            case .collection(let items):
                for item in items { try expectComparable(left, right.with(item), "IN") }
            case .string, .unknown, .null:
                try expectString(left, op, side: "left")
            default:
                throw error(
                    .typeMismatch, comparison.column,
                    "IN needs a list, an array or a string on the right, not \(right.kind.name)")
            }
        case .contains where membership:
            try expectComparable(left, right, "CONTAINS")
        case .contains, .beginsWith, .endsWith, .like, .matches:
            try expectString(left, op, side: "left")
            try expectString(right, op, side: "right")
            if op == .matches, case .value(.string(let pattern), _) = comparison.right {
                do {
                    try PredicateRegex.validate(pattern, options: comparison.options)
                } catch let invalid as FetchPredicateError {
                    throw self.error(.invalidPattern, comparison.column, invalid.message)
                }
            }
        }
    }

    /// Fails unless `operand` can be a string.
    private func expectString(_ operand: Operand, _ op: ComparisonOperator, side: String) throws {
        guard operand.kind.admitsString else {
            // A key is named; a value is not quoted (error text never shows values).
            let what = operand.keyPath.map { "'\($0)' is" } ?? "the \(side) side is"
            throw error(
                .typeMismatch, operand.column,
                "\(op.rawValue) needs strings, but \(what) \(operand.typeName)")
        }
    }

    /// Fails unless the two sides hold values of kinds that compare: numbers
    /// and booleans, strings, dates, bytes, UUIDs, objects of related
    /// entities; nil and variables go with anything.
    private func expectComparable(_ left: Operand, _ right: Operand, _ opName: String) throws {
        guard !left.kind.matches(right.kind, model: model) else { return }
        let subject = left.keyPath != nil ? left : right
        let other = subject.keyPath == left.keyPath ? right : left
        throw error(
            .typeMismatch, subject.column,
            "\(subject.spelled) is \(subject.typeName) and cannot be compared (\(opName)) with "
                + "\(other.keyPath.map { "'\($0)' (\(other.typeName))" } ?? other.kind.name)")
    }
}

extension PredicateChecker.Operand {
    /// `'age' (integer32)` style spelling for messages, or the value's kind.
    var spelled: String { keyPath.map { "'\($0)'" } ?? kind.name }

    /// The operand with another kind: one element of a list.
    func with(_ kind: PredicateChecker.Kind) -> PredicateChecker.Operand {
        PredicateChecker.Operand(kind: kind, column: column, typeName: kind.name)
    }
}

extension PredicateChecker.Kind {
    var isObject: Bool {
        if case .object = self { return true }
        return false
    }

    var admitsString: Bool {
        switch self {
        case .string, .null, .unknown: true
        default: false
        }
    }

    /// Whether values of `self` and `other` can be compared.
    package func matches(_ other: PredicateChecker.Kind, model: Model) -> Bool {
        switch (self, other) {
        case (.null, _), (_, .null), (.unknown, _), (_, .unknown): return true
        case (.number, .number), (.number, .boolean), (.boolean, .number),
            (.boolean, .boolean), (.string, .string), (.date, .date), (.data, .data),
            (.uuid, .uuid):
            return true
        case (.object(let a), .object(let b)):
            guard let a, let b else { return true }
            return a == b || model.ancestors(of: a).contains { $0.name == b }
                || model.ancestors(of: b).contains { $0.name == a }
        case (.collection(let items), let single), (let single, .collection(let items)):
            // An array compared with a value: `IN` and `BETWEEN` pass their
            // elements one by one, so only `%@` arrays reach here.
            return items.allSatisfy { $0.matches(single, model: model) }
        default: return false
        }
    }
}
