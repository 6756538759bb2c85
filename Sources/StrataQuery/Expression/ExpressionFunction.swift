/// The functions mapping expressions can call. The MigrationMappings
/// article describes each; ``ExpressionChecker`` checks their arguments and
/// ``ExpressionEvaluator`` computes them.
enum ExpressionFunction: String, CaseIterable, Sendable {
    case abs, after, archive, before, coalesce, concatenate, contains, count, date, first
    case firstLine
    case ifThen = "if"
    case integer, join, json, jsonValue, last, length, lower, matches, number, prefix, replace
    case round, split, string, trim, unarchive, upper

    /// How the function is called, for messages.
    var usage: String {
        switch self {
        case .abs: "abs(number)"
        case .after: "after(text, separator)"
        case .archive: "archive(value)"
        case .before: "before(text, separator)"
        case .coalesce: "coalesce(value, fallback, …)"
        case .concatenate: "concatenate(value, value, …)"
        case .contains: "contains(text or list, text)"
        case .count: "count(list)"
        case .date: "date(text) or date(text, \"yyyy-MM-dd\")"
        case .first: "first(list)"
        case .firstLine: "firstLine(text)"
        case .ifThen: "if(condition, then, else)"
        case .integer: "integer(number or text)"
        case .join: "join(list, separator)"
        case .json: "json(value)"
        case .jsonValue: "jsonValue(binary or text)"
        case .last: "last(list)"
        case .length: "length(text)"
        case .lower: "lower(text)"
        case .matches: "matches(text, \"regex\")"
        case .number: "number(text) or number(text, \"#,##0.00\")"
        case .prefix: "prefix(text, count)"
        case .replace: "replace(text, find, replacement)"
        case .round: "round(number)"
        case .split: "split(text, separator)"
        case .string: "string(value) or string(date, \"yyyy-MM-dd\")"
        case .trim: "trim(text)"
        case .unarchive: "unarchive(binary)"
        case .upper: "upper(text)"
        }
    }

    /// How many arguments the function takes. ``ExpressionChecker`` refuses
    /// other counts when a mapping loads, and ``ExpressionEvaluator`` checks
    /// again before it reads an argument, so no call can read past the ones
    /// it was given.
    var arity: ClosedRange<Int> {
        switch self {
        case .abs, .archive, .count, .first, .firstLine, .integer, .json, .jsonValue, .last,
            .length, .lower, .round, .trim, .unarchive, .upper:
            1...1
        case .after, .before, .contains, .join, .matches, .prefix, .split: 2...2
        case .date, .number, .string: 1...2
        case .replace, .ifThen: 3...3
        case .concatenate: 1...Int.max
        case .coalesce: 2...Int.max
        }
    }

    /// A call of the function with `count` arguments, or an error at
    /// `column` naming how many it takes and how it is written.
    func checkArity(_ count: Int, column: Int) throws(ExpressionError) {
        guard !arity.contains(count) else { return }
        func plural(_ count: Int) -> String { count == 1 ? "1 argument" : "\(count) arguments" }
        let takes =
            arity.lowerBound == arity.upperBound
            ? plural(arity.lowerBound)
            : arity.upperBound == .max
                ? "at least \(plural(arity.lowerBound))"
                : "\(arity.lowerBound) or \(plural(arity.upperBound))"
        throw ExpressionError(
            column: column,
            message: "\(rawValue) takes \(takes), found \(count); write \(usage)")
    }

    /// Every function name, sorted, for "unknown function" messages.
    static var names: String {
        allCases.map(\.rawValue).sorted().joined(separator: ", ")
    }
}
