import Foundation
import StrataSchema

// MARK: - Comparisons

extension PredicateSQLCompiler {
    /// One side of a comparison in SQL.
    enum Operand {
        /// An SQL expression with what it holds.
        case expression(String, Kind)
        /// A value, bound when the comparison knows the other side's kind.
        case value(PredicateValue)
    }

    /// What an SQL expression holds, which decides how values bind to it.
    package enum Kind {
        case attribute(AttributeType)
        /// A `Z_PK` or foreign key of objects of the entity tree `entity`.
        case object(entity: String)
        case count
    }

    package mutating func comparison(_ comparison: Comparison, in scope: inout Scope) throws
        -> String
    {
        var comparison = comparison
        // `value op keyPath` reads as `keyPath op' value`.
        if case .value = comparison.left, case .keyPath = comparison.right,
            let mirrored = comparison.op.mirrored
        {
            swap(&comparison.left, &comparison.right)
            comparison.op = mirrored
        }
        if case .keyPath(let path, let column) = comparison.left {
            let target = try resolve(path, column: column, in: &scope)
            if case .toMany(let alias, let entity, let relationship, let rest) = target {
                return try quantified(
                    comparison, relationship, from: alias, entity: entity, rest: rest,
                    column: column)
            }
            guard comparison.quantifier == .direct else {
                throw error(
                    .quantifier, column: comparison.column,
                    "\(comparison.quantifier.rawValue) needs a to-many key path;"
                        + " '\(path.joined(separator: "."))' is not one")
            }
            return try compare(operand(target), comparison, in: &scope)
        }
        let left = try operand(comparison.left, column: comparison.column, in: &scope)
        return try compare(left, comparison, in: &scope)
    }

    /// `ANY`/`NONE`/`ALL` over a to-many relationship, and collection
    /// membership (`media CONTAINS %@`), as correlated subqueries.
    private mutating func quantified(
        _ comparison: Comparison, _ relationship: Relationship, from alias: String,
        entity: String, rest: [String], column: Int
    ) throws -> String {
        var inner = comparison
        var quantifier = comparison.quantifier
        if quantifier == .direct {
            // Membership: `toMany CONTAINS object` is `ANY toMany == object`.
            guard comparison.op == .contains, rest.isEmpty else {
                throw error(
                    .quantifier, column: column,
                    "'\(relationship.name)' is to-many: use ANY, ALL, NONE or @count")
            }
            quantifier = .any
            inner.op = .equal
        }
        // A further to-many step (`ANY groups.members.name`) nests as ANY.
        inner.quantifier =
            crossesToMany(rest, from: relationship.destination) ? .any : .direct
        inner.left = .keyPath(rest, column: column)
        var (subscope, from, link) = try toManySource(
            relationship, from: alias, entity: entity, column: column)
        let condition = try deeper(by: PredicateLimits.subqueryNesting, column: column) {
            try $0.comparison(inner, in: &subscope)
        }
        switch quantifier {
        case .any, .direct:
            return "EXISTS " + subquery("1", subscope, from: from, link: link, condition)
        case .none:
            return "NOT EXISTS " + subquery("1", subscope, from: from, link: link, condition)
        case .all:
            // Every destination matches: none fails (unknown counts as failing).
            return "NOT EXISTS "
                + subquery("1", subscope, from: from, link: link, "(\(condition)) IS NOT 1")
        }
    }

    /// Whether `path` from `entity` steps through a to-many relationship.
    private func crossesToMany(_ path: [String], from entity: String) -> Bool {
        var current = entity
        for key in path {
            guard
                let relationship = mapping.model.allRelationships(of: current).first(where: {
                    $0.name == key
                })
            else { return false }
            if relationship.isToMany { return true }
            current = relationship.destination
        }
        return false
    }

    private func operand(_ target: Target) -> Operand {
        switch target {
        case .attribute(let sql, let attribute): .expression(sql, .attribute(attribute.type))
        case .toOne(let sql, let destination): .expression(sql, .object(entity: destination))
        case .object(let sql, let entity): .expression(sql, .object(entity: entity))
        case .toMany: .value(.null)  // Handled before; never reached.
        }
    }

    private mutating func operand(
        _ expression: ExpressionNode, column: Int, in scope: inout Scope
    ) throws -> Operand {
        switch expression {
        case .keyPath(let path, let keyColumn):
            let target = try resolve(path, column: keyColumn, in: &scope)
            if case .toMany(_, let entity, let relationship, _) = target {
                throw error(
                    .quantifier, column: keyColumn,
                    "\(entity).\(relationship.name) is to-many and cannot be compared here")
            }
            return operand(target)
        case .count(let path, let keyColumn):
            let target = try resolve(path, column: keyColumn, in: &scope)
            guard case .toMany(let alias, let entity, let relationship, let rest) = target,
                rest.isEmpty
            else {
                throw error(
                    .quantifier, column: keyColumn,
                    "@count needs a to-many key path; '\(path.joined(separator: "."))' is not one")
            }
            let (subscope, from, link) = try toManySource(
                relationship, from: alias, entity: entity, column: keyColumn)
            // The subquery holds no condition, but still nests once.
            try deeper(by: PredicateLimits.subqueryNesting, column: keyColumn) { _ in }
            return .expression(subquery("COUNT(*)", subscope, from: from, link: link, ""), .count)
        case .value(let value, _):
            return .value(value)
        case .list(let items):
            return .value(.array(try items.map { try listValue($0, column: column) }))
        case .variable(let name, let keyColumn):
            throw error(.unboundVariable, column: keyColumn, "$\(name) has no value")
        case .unary, .binary, .function:
            throw error(
                .invalidOperand, column: expression.column,
                expression.refusalInPredicates ?? "not an operand")
        }
    }

    private func listValue(_ expression: ExpressionNode, column: Int) throws
        -> PredicateValue
    {
        switch expression {
        case .value(let value, _): return value
        case .list(let items): return .array(try items.map { try listValue($0, column: column) })
        case .variable(let name, let keyColumn):
            throw error(.unboundVariable, column: keyColumn, "$\(name) has no value")
        default:
            throw error(.invalidOperand, column: column, "a list may only hold values")
        }
    }

    // MARK: - Operators

    private mutating func compare(_ left: Operand, _ comparison: Comparison, in scope: inout Scope)
        throws -> String
    {
        guard case .expression(let lhs, let kind) = left else {
            throw error(
                .invalidOperand, column: comparison.column,
                "a comparison needs a key path on one side")
        }
        let right = try operand(comparison.right, column: comparison.column, in: &scope)
        let options = comparison.options
        let folds = !options.isEmpty && kind.isText
        let row = Row(entity: scope.entity, alias: scope.alias)
        switch right {
        case .expression(let rhs, _):
            return try compareExpressions(lhs, rhs, comparison, folds: folds, row: row)
        case .value(let value):
            return try compareValue(lhs, kind, value, comparison, folds: folds, row: row)
        }
    }

    /// The object a comparison is tested on: `MATCHES` passes its entity
    /// and `Z_PK` to `strata_matches`, so that a match that hits its
    /// ``RegexLimits`` names the object.
    struct Row {
        var entity: String
        var alias: String
    }

    /// `strata_matches(text, pattern, entity, Z_PK, options)`, binding in
    /// the order of the text.
    private mutating func matchesCall(
        _ lhs: String, _ pattern: String, _ row: Row, options: Int64
    ) -> String {
        "strata_matches(\(lhs), \(pattern), \(bind(.text(row.entity)))"
            + ", \(row.alias).\"Z_PK\", \(bind(.integer(options))))"
    }

    /// Key path against key path (`startDate < endDate`).
    private mutating func compareExpressions(
        _ lhs: String, _ rhs: String, _ comparison: Comparison, folds: Bool, row: Row
    ) throws -> String {
        let options = comparison.options.rawValue
        func folded(_ side: String) -> String {
            folds ? "strata_fold(\(side), \(bind(.integer(Int64(options)))))" : side
        }
        switch comparison.op {
        case .equal, .notEqual, .less, .lessOrEqual, .greater, .greaterOrEqual:
            let l = folded(lhs)
            let r = folded(rhs)
            let sqlOperator = comparison.op == .notEqual ? "IS NOT" : comparison.op.sqlOperator
            return "(\(l) \(sqlOperator) \(r))"
        case .matches:
            return matchesCall(lhs, rhs, row, options: Int64(options))
        case .contains, .beginsWith, .endsWith, .like:
            let function = comparison.op.sqlFunction
            let needle =
                comparison.op == .like
                ? rhs : "strata_fold(\(rhs), \(bind(.integer(Int64(options)))))"
            return "\(function)(\(lhs), \(needle), \(bind(.integer(Int64(options)))))"
        case .between, .in:
            throw error(
                .invalidOperand, column: comparison.column,
                "\(comparison.op.rawValue) needs a list of values on its right")
        }
    }

    /// Key path against a value (the usual case).
    private mutating func compareValue(
        _ lhs: String, _ kind: Kind, _ value: PredicateValue, _ comparison: Comparison,
        folds: Bool, row: Row
    ) throws -> String {
        let options = Int64(comparison.options.rawValue)
        let column = comparison.column
        /// The bound value, folded in SQL when the comparison folds.
        func placeholder(_ value: PredicateValue) throws -> String {
            let bound = bind(try sqlValue(value, for: kind, column: column))
            return folds ? "strata_fold(\(bound), \(bind(.integer(options))))" : bound
        }
        /// The left side, folded when the comparison folds; bound first.
        func left() -> String {
            folds ? "strata_fold(\(lhs), \(bind(.integer(options))))" : lhs
        }
        switch comparison.op {
        case .equal, .notEqual, .less, .lessOrEqual, .greater, .greaterOrEqual:
            if case .null = value {
                switch comparison.op {
                case .equal: return "(\(lhs) IS NULL)"
                case .notEqual: return "(\(lhs) IS NOT NULL)"
                default: return "0"  // Nothing is ordered against nil.
                }
            }
            let sqlOperator = comparison.op.sqlOperator
            let l = left()
            let r = try placeholder(value)
            // Core Data's `!=` also matches a missing value.
            return comparison.op == .notEqual
                ? "(\(l) <> \(r) OR \(lhs) IS NULL)" : "(\(l) \(sqlOperator) \(r))"
        case .between:
            guard case .array(let bounds) = value, bounds.count == 2 else {
                throw error(
                    .invalidOperand, column: column, "BETWEEN needs a list of two values")
            }
            if bounds.contains(.null) { return "0" }
            let l = left()
            let low = try placeholder(bounds[0])
            let high = try placeholder(bounds[1])
            return "(\(l) BETWEEN \(low) AND \(high))"
        case .in:
            let items: [PredicateValue]
            if case .array(let list) = value { items = list } else { items = [value] }
            // nil in the list matches nothing, as in memory.
            let present = items.filter { $0 != .null }
            guard !present.isEmpty else { return "0" }
            let l = left()
            return "(\(l) IN ("
                + (try present.map { try placeholder($0) }).joined(separator: ", ") + "))"
        case .contains, .beginsWith, .endsWith:
            guard case .string(let needle) = value else {
                if case .null = value { return "0" }
                throw error(
                    .typeMismatch, column: column,
                    "\(comparison.op.rawValue) needs a string, not \(value.kindName)")
            }
            if !folds {
                // GLOB is case-sensitive, runs in C and can use an index for
                // a prefix; the needle's own wildcards are escaped.
                let escaped = PredicateSQLCompiler.globEscaped(needle)
                let pattern: String
                switch comparison.op {
                case .beginsWith: pattern = escaped + "*"
                case .endsWith: pattern = "*" + escaped
                default: pattern = "*" + escaped + "*"
                }
                return "(\(lhs) GLOB \(bind(.text(pattern))))"
            }
            let function = comparison.op.sqlFunction
            let folded = "strata_fold(\(bind(.text(needle))), \(bind(.integer(options))))"
            return "\(function)(\(lhs), \(folded), \(bind(.integer(options))))"
        case .like, .matches:
            guard case .string(let pattern) = value else {
                if case .null = value { return "0" }
                throw error(
                    .typeMismatch, column: column,
                    "\(comparison.op.rawValue) needs a string, not \(value.kindName)")
            }
            if comparison.op == .matches {
                do {
                    try PredicateRegex.validate(pattern, options: comparison.options)
                } catch var invalid as FetchPredicateError {
                    invalid.predicate = quotedText
                    invalid.column = column
                    throw invalid
                }
                return matchesCall(lhs, bind(.text(pattern)), row, options: options)
            }
            let function = comparison.op.sqlFunction
            return "\(function)(\(lhs), \(bind(.text(pattern))), \(bind(.integer(options))))"
        }
    }

    /// `text` with GLOB's wildcards (`*`, `?`, `[`) made literal.
    static func globEscaped(_ text: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count)
        for character in text.unicodeScalars {
            switch character {
            case "*": escaped += "[*]"
            case "?": escaped += "[?]"
            case "[": escaped += "[[]"
            default: escaped.unicodeScalars.append(character)
            }
        }
        return escaped
    }
}

extension PredicateSQLCompiler.Kind {
    var isText: Bool {
        if case .attribute(let type) = self { return type == .string || type == .uri }
        return false
    }
}

extension ComparisonOperator {
    /// The operator with its sides swapped (`3 < x` is `x > 3`), for the
    /// operators that have one.
    var mirrored: ComparisonOperator? {
        switch self {
        case .equal, .notEqual: self
        case .less: .greater
        case .lessOrEqual: .greaterOrEqual
        case .greater: .less
        case .greaterOrEqual: .lessOrEqual
        default: nil
        }
    }

    var sqlOperator: String {
        switch self {
        case .equal: "="
        case .notEqual: "<>"
        case .less: "<"
        case .lessOrEqual: "<="
        case .greater: ">"
        case .greaterOrEqual: ">="
        default: rawValue
        }
    }

    /// The registered function (``PredicateSQLFunctions``) for a string
    /// operator.
    var sqlFunction: String {
        switch self {
        case .beginsWith: "strata_beginswith"
        case .endsWith: "strata_endswith"
        case .like: "strata_like"
        case .matches: "strata_matches"
        default: "strata_contains"
        }
    }
}
