import Foundation
import StrataCore

/// Computes mapping expressions on one source object at a time.
///
/// `nil` propagates: an operator or function with a nil operand gives nil,
/// except `??`, `coalesce`, `concatenate` (which skips nils), `if` (a nil
/// condition counts as false), `==`/`!=` (nil equals only nil) and `&&`/`||`
/// (nil counts as false). Division by zero gives nil. The evaluator keeps the
/// compiled regular expressions and date formatters of the expressions it
/// has run, so each compiles once. A regular expression that hits its
/// ``RegexLimits`` is an error, not an empty list, and so is a result
/// larger than ``maximumResultBytes``: twelve nested
/// `replace(x, "a", "aaaaaaaaaa")` would otherwise ask for terabytes.
package final class ExpressionEvaluator {
    /// The largest string, list (its items together) or byte value an
    /// operator or function may give, in bytes (UTF-8 for text).
    let maximumResultBytes: Int
    private var regexes: [String: RegularExpression] = [:]
    private var dateFormatters: [String: DateFormatter] = [:]
    private var numberFormats: [String: NumberFormatPattern] = [:]

    /// The default of ``maximumResultBytes``: 16 MiB, the largest field an
    /// import reads by default (`ImportLimits.maximumFieldBytes`, a test
    /// keeps the two equal).
    static let defaultMaximumResultBytes = 16 * 1024 * 1024

    /// An evaluator whose results may hold up to `maximumResultBytes`.
    package init(maximumResultBytes: Int = ExpressionEvaluator.defaultMaximumResultBytes) {
        self.maximumResultBytes = maximumResultBytes
    }

    /// The value of `node` for a source object whose key-path values are
    /// `values` (by dotted path; a missing path reads as nil).
    ///
    /// - Throws: ``ExpressionError`` for an integer overflow, a number too
    ///   large for an integer, a call with the wrong number of arguments or
    ///   of an unknown function (the checker refuses both when a mapping
    ///   loads), or a result larger than ``maximumResultBytes``.
    package func evaluate(
        _ node: ExpressionNode, _ values: [String: MappingValue]
    ) throws(ExpressionError) -> MappingValue {
        switch node {
        case .value(let value, _): return MappingValue(value)
        case .keyPath(let path, _): return values[path.joined(separator: ".")] ?? .null
        case .unary(let op, let operand, let column):
            let value = try evaluate(operand, values)
            switch (op, value) {
            case (.not, .boolean(let flag)): return .boolean(!flag)
            case (.negate, .integer(let number)):
                guard number != .min else { throw overflow(column) }
                return .integer(-number)
            case (.negate, .real(let number)): return .real(-number)
            default: return .null
            }
        case .binary(let op, let left, let right, let column):
            return try bounded(binary(op, left, right, values, column: column), column)
        case .function(let name, let arguments, let column):
            guard let function = ExpressionFunction(rawValue: name) else {
                throw ExpressionError(
                    column: column,
                    message: "unknown function '\(name)'; known functions: "
                        + ExpressionFunction.names)
            }
            try function.checkArity(arguments.count, column: column)
            return try bounded(call(function, arguments, values, column: column), column)
        case .count(_, let column), .variable(_, let column):
            // The checker refuses both when a mapping loads.
            throw ExpressionError(column: column, message: "not a value of a mapping expression")
        case .list(let items):
            throw ExpressionError(
                column: items.first?.column ?? 1,
                message: "a list {…} is not a value of a mapping expression")
        }
    }

    /// `value`, or an error when it is larger than ``maximumResultBytes``.
    func bounded(_ value: MappingValue, _ column: Int) throws(ExpressionError) -> MappingValue {
        switch value {
        case .string(let text): try checkSize(text.utf8.count, column)
        case .data(let bytes): try checkSize(bytes.count, column)
        case .list(let items):
            var total = 0
            for item in items { total += item.utf8.count + 1 }
            try checkSize(total, column)
        default: break
        }
        return value
    }

    /// Throws when a result of `bytes` would be larger than
    /// ``maximumResultBytes``; called before building a result that grows
    /// (`replace`, `join`, `concatenate`, `+`), so it is never built.
    func checkSize(_ bytes: Int, _ column: Int) throws(ExpressionError) {
        guard bytes > maximumResultBytes else { return }
        throw ExpressionError(
            column: column,
            message: "the result would hold \(bytes) bytes, more than the limit of "
                + "\(maximumResultBytes)")
    }

    func overflow(_ column: Int) -> ExpressionError {
        ExpressionError(column: column, message: "integer overflow")
    }

    private func binary(
        _ op: BinaryOperator, _ leftNode: ExpressionNode, _ rightNode: ExpressionNode,
        _ values: [String: MappingValue], column: Int
    ) throws(ExpressionError) -> MappingValue {
        let left = try evaluate(leftNode, values)
        switch op {
        case .coalesce: return left.isNull ? try evaluate(rightNode, values) : left
        case .and:
            guard left == .boolean(true) else { return .boolean(false) }
            return .boolean(try evaluate(rightNode, values) == .boolean(true))
        case .or:
            if left == .boolean(true) { return .boolean(true) }
            return .boolean(try evaluate(rightNode, values) == .boolean(true))
        default: break
        }
        let right = try evaluate(rightNode, values)
        guard case .compare(let comparison) = op else {
            if left.isNull || right.isNull { return .null }
            return try arithmetic(op, left, right, column: column)
        }
        switch comparison {
        case .equal: return .boolean(Self.equal(left, right))
        case .notEqual: return .boolean(!Self.equal(left, right))
        default: break
        }
        if left.isNull || right.isNull { return .null }
        guard let order = Self.order(left, right) else { return .null }
        switch comparison {
        case .less: return .boolean(order < 0)
        case .lessOrEqual: return .boolean(order <= 0)
        case .greater: return .boolean(order > 0)
        case .greaterOrEqual: return .boolean(order >= 0)
        default: return .null  // The checker refuses the predicates' other operators.
        }
    }

    private func arithmetic(
        _ op: BinaryOperator, _ left: MappingValue, _ right: MappingValue, column: Int
    ) throws(ExpressionError) -> MappingValue {
        switch (op, left, right) {
        case (.add, .string(let a), .string(let b)):
            try checkSize(a.utf8.count + b.utf8.count, column)
            return .string(a + b)
        case (.add, .date(let seconds), _): return right.number.map { .date(seconds + $0) } ?? .null
        case (.add, _, .date(let seconds)): return left.number.map { .date(seconds + $0) } ?? .null
        case (.subtract, .date(let a), .date(let b)): return .real(a - b)
        case (.subtract, .date(let seconds), _):
            return right.number.map { .date(seconds - $0) } ?? .null
        case (_, .integer(let a), .integer(let b)) where op != .divide:
            let (result, overflowed) =
                switch op {
                case .add: a.addingReportingOverflow(b)
                case .subtract: a.subtractingReportingOverflow(b)
                default: a.multipliedReportingOverflow(by: b)
                }
            guard !overflowed else { throw overflow(column) }
            return .integer(result)
        default:
            guard let a = left.number, let b = right.number else { return .null }
            switch op {
            case .add: return .real(a + b)
            case .subtract: return .real(a - b)
            case .multiply: return .real(a * b)
            default: return b == 0 ? .null : .real(a / b)
            }
        }
    }

    /// nil equals only nil; numbers compare by value.
    static func equal(_ left: MappingValue, _ right: MappingValue) -> Bool {
        if let a = left.number, let b = right.number { return a == b }
        return left == right
    }

    /// -1, 0 or 1 for two numbers, strings or dates; nil for other pairs.
    package static func order(_ left: MappingValue, _ right: MappingValue) -> Int? {
        switch (left, right) {
        case (.string(let a), .string(let b)): return a == b ? 0 : (a < b ? -1 : 1)
        case (.date(let a), .date(let b)): return a == b ? 0 : (a < b ? -1 : 1)
        default:
            guard let a = left.number, let b = right.number else { return nil }
            return a == b ? 0 : (a < b ? -1 : 1)
        }
    }

    // MARK: - Caches

    /// `pattern` compiled (checked when the mapping loaded; this evaluator
    /// runs on one thread, so it owns its handles).
    func regex(_ pattern: String) throws(RegexError) -> RegularExpression {
        if let known = regexes[pattern] { return known }
        let compiled = try RegularExpression(pattern)
        regexes[pattern] = compiled
        return compiled
    }

    func dateFormatter(_ format: String) -> DateFormatter {
        if let known = dateFormatters[format] { return known }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = format
        formatter.isLenient = false
        dateFormatters[format] = formatter
        return formatter
    }

    func numberFormat(_ format: String) -> NumberFormatPattern {
        if let known = numberFormats[format] { return known }
        let pattern = NumberFormatPattern(format) ?? .plain  // Checked when loaded.
        numberFormats[format] = pattern
        return pattern
    }
}
