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

    /// Every function name, sorted, for "unknown function" messages.
    static var names: String {
        allCases.map(\.rawValue).sorted().joined(separator: ", ")
    }
}
