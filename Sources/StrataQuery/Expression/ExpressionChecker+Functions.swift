import Foundation
import StrataCore

// MARK: - Function calls

extension ExpressionChecker {
    mutating func call(
        _ name: String, _ arguments: [ExpressionNode], column: Int
    ) throws(ExpressionError) -> ExpressionType {
        guard let function = ExpressionFunction(rawValue: name) else {
            throw ExpressionError(
                column: column,
                message: "unknown function '\(name)'; known functions: \(ExpressionFunction.names)")
        }
        var types: [ExpressionType] = []
        for argument in arguments { types.append(try type(of: argument)) }
        func argument(_ index: Int, _ allowed: [ExpressionType]) throws(ExpressionError) {
            try require(
                types[index], allowed, "argument \(index + 1) of \(name)",
                column: arguments[index].column)
        }
        try function.checkArity(arguments.count, column: column)
        switch function {
        case .trim, .lower, .upper, .firstLine, .length:
            try argument(0, [.string])
            return function == .length ? .integer : .string
        case .before, .after, .split:
            try argument(0, [.string])
            try argument(1, [.string])
            return function == .split ? .list : .string
        case .contains:
            try argument(0, [.string, .list, .structured])
            try argument(1, [.string])
            return .boolean
        case .replace:
            for index in 0..<3 { try argument(index, [.string]) }
            return .string
        case .prefix:
            try argument(0, [.string])
            try argument(1, [.integer])
            return .string
        case .matches:
            try argument(0, [.string])
            let pattern = try constantText(arguments[1], of: name, what: "regular expression")
            do {
                _ = try RegularExpression(pattern)
            } catch {
                let place = error.column.map { " at column \($0) of the pattern" } ?? ""
                throw ExpressionError(
                    column: arguments[1].column,
                    message: "the regular expression does not compile\(place) "
                        + "\"\(pattern)\": \(error.message)")
            }
            return .list
        case .join:
            try argument(0, [.list, .structured])
            try argument(1, [.string])
            return .string
        case .first, .last, .count:
            try argument(0, [.list, .structured])
            return function == .count ? .integer : .string
        case .number:
            try argument(0, [.string, .integer, .real])
            if arguments.count == 2 {
                let format = try constantText(arguments[1], of: name, what: "number format")
                guard NumberFormatPattern(format) != nil else {
                    throw ExpressionError(
                        column: arguments[1].column,
                        message: "number format \"\(format)\" names no separators; write "
                            + "it like \"#,##0.00\" or \"#.##0,00\"")
                }
            }
            return .real
        case .integer:
            try argument(0, [.string, .integer, .real])
            return .integer
        case .round:
            try argument(0, [.integer, .real])
            return .integer
        case .abs:
            try argument(0, [.integer, .real])
            return types[0] == .null ? .real : types[0]
        case .date:
            try argument(0, [.string])
            if arguments.count == 2 {
                let format = try constantText(arguments[1], of: name, what: "date format")
                guard !format.isEmpty else {
                    throw ExpressionError(
                        column: arguments[1].column,
                        message: "empty date format; write it like \"yyyy-MM-dd HH:mm\"")
                }
            }
            return .date
        case .string:
            if arguments.count == 2 {
                try argument(0, [.date])
                _ = try constantText(arguments[1], of: name, what: "date format")
            }
            return .string
        case .concatenate:
            return .string
        case .unarchive:
            try argument(0, [.binary])
            return .structured
        case .jsonValue:
            try argument(0, [.binary, .string])
            return .structured
        case .json, .archive:
            return .binary
        case .coalesce:
            return try unify(types, arguments, name)
        case .ifThen:
            try argument(0, [.boolean])
            return try unify(Array(types.dropFirst()), Array(arguments.dropFirst()), name)
        }
    }

    /// A string literal argument (a pattern or format), checked once when
    /// the mapping loads instead of on every row.
    private func constantText(
        _ node: ExpressionNode, of name: String, what: String
    ) throws(ExpressionError) -> String {
        guard case .value(.string(let text), _) = node else {
            throw ExpressionError(
                column: node.column,
                message: "the \(what) of \(name) must be a string literal, such as "
                    + (what == "regular expression" ? "\"#(\\\\w+)\"" : "\"yyyy-MM-dd\""))
        }
        return text
    }

    private func unify(
        _ types: [ExpressionType], _ arguments: [ExpressionNode], _ name: String
    ) throws(ExpressionError) -> ExpressionType {
        var result = ExpressionType.null
        for (type, argument) in zip(types, arguments) {
            guard let unified = result.unified(with: type) else {
                throw ExpressionError(
                    column: argument.column,
                    message: "\(name) needs values of one type; this one is "
                        + "\(type.withArticle), the ones before are \(result.withArticle)")
            }
            result = unified
        }
        return result
    }
}
