import Foundation
import StrataCore

// MARK: - Function calls

extension ExpressionEvaluator {
    func call(
        _ function: ExpressionFunction, _ nodes: [ExpressionNode],
        _ values: [String: MappingValue], column: Int
    ) throws(ExpressionError) -> MappingValue {
        // Functions that look at nil themselves, or evaluate lazily.
        switch function {
        case .coalesce:
            for node in nodes {
                let value = try evaluate(node, values)
                if !value.isNull { return value }
            }
            return .null
        case .ifThen:
            let condition = try evaluate(nodes[0], values)
            return try evaluate(condition == .boolean(true) ? nodes[1] : nodes[2], values)
        case .concatenate:
            var texts: [String] = []
            var bytes = 0
            for node in nodes {
                guard let text = try evaluate(node, values).text else { continue }
                bytes += text.utf8.count
                try checkSize(bytes, column)
                texts.append(text)
            }
            return texts.isEmpty ? .null : .string(texts.joined())
        default: break
        }
        var arguments: [MappingValue] = []
        for node in nodes {
            let value = try evaluate(node, values)
            if value.isNull { return .null }
            arguments.append(value)
        }
        return try apply(function, arguments, column: column)
    }

    private func apply(
        _ function: ExpressionFunction, _ arguments: [MappingValue], column: Int
    ) throws(ExpressionError) -> MappingValue {
        func text(_ index: Int) -> String { arguments[index].text ?? "" }
        func list(_ index: Int) -> [String] {
            switch arguments[index] {
            case .list(let items): return items
            // An unarchived or JSON array: its elements' text.
            case .structured(.array(let items)), .structured(.set(let items)):
                return items.compactMap { MappingValue(scalar: $0.value).text }
            default: return []
            }
        }
        switch function {
        case .trim: return .string(text(0).trimmingCharacters(in: .whitespacesAndNewlines))
        case .lower: return .string(text(0).lowercased())
        case .upper: return .string(text(0).uppercased())
        case .length: return .integer(Int64(text(0).count))
        case .firstLine:
            let line = text(0).split(whereSeparator: \.isNewline)
                .map { $0.trimmingCharacters(in: .whitespaces) }
                .first { !$0.isEmpty }
            return line.map { .string($0) } ?? .null
        case .before:
            guard let range = text(0).range(of: text(1)), !text(1).isEmpty else {
                return .string(text(0))
            }
            return .string(String(text(0)[..<range.lowerBound]))
        case .after:
            guard let range = text(0).range(of: text(1)), !text(1).isEmpty else { return .null }
            return .string(String(text(0)[range.upperBound...]))
        case .replace:
            let (source, find, replacement) = (text(0), text(1), text(2))
            guard !find.isEmpty else { return .string(source) }
            let growth = replacement.utf8.count - find.utf8.count
            // At most this many matches: checked exactly only when that many
            // could pass the limit.
            if growth > 0,
                source.utf8.count + source.utf8.count / find.utf8.count * growth
                    > maximumResultBytes
            {
                let matches = source.components(separatedBy: find).count - 1
                try checkSize(source.utf8.count + matches * growth, column)
            }
            return .string(source.replacingOccurrences(of: find, with: replacement))
        case .contains:
            if case .list = arguments[0] { return .boolean(list(0).contains(text(1))) }
            if case .structured(let value) = arguments[0], value.elements != nil {
                return .boolean(list(0).contains(text(1)))
            }
            return .boolean(text(1).isEmpty || text(0).contains(text(1)))
        case .prefix:
            guard case .integer(let count) = arguments[1] else { return .null }
            return .string(String(text(0).prefix(Int(clamping: max(0, count)))))
        case .split:
            let pieces =
                text(1).isEmpty
                ? [text(0)] : text(0).components(separatedBy: text(1))
            return .list(
                pieces.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
                    .filter { !$0.isEmpty })
        case .matches:
            return .list(try matches(text(0), pattern: text(1), column: column))
        case .join:
            let items = list(0)
            let separator = text(1)
            var bytes = max(0, items.count - 1) * separator.utf8.count
            for item in items { bytes += item.utf8.count }
            try checkSize(bytes, column)
            return .string(items.joined(separator: separator))
        case .first: return list(0).first.map { .string($0) } ?? .null
        case .last: return list(0).last.map { .string($0) } ?? .null
        case .count: return .integer(Int64(list(0).count))
        case .number:
            if let number = arguments[0].number { return .real(number) }
            let format = arguments.count > 1 ? numberFormat(text(1)) : .plain
            return format.leadingNumber(in: text(0)).map { .real($0) } ?? .null
        case .integer:
            if case .integer = arguments[0] { return arguments[0] }
            let number = arguments[0].number ?? NumberFormatPattern.plain.leadingNumber(in: text(0))
            guard let number else { return .null }
            return try whole(number.rounded(.towardZero), column: column)
        case .round:
            guard let number = arguments[0].number else { return .null }
            return try whole(number.rounded(.toNearestOrAwayFromZero), column: column)
        case .abs:
            switch arguments[0] {
            case .integer(let number):
                guard number != .min else { throw overflow(column) }
                return .integer(Swift.abs(number))
            case .real(let number): return .real(Swift.abs(number))
            default: return .null
            }
        case .date:
            let trimmed = text(0).trimmingCharacters(in: .whitespacesAndNewlines)
            if arguments.count > 1 {
                return dateFormatter(text(1)).date(from: trimmed)
                    .map { .date($0.timeIntervalSinceReferenceDate) } ?? .null
            }
            return ISO8601Date.seconds(from: trimmed).map { .date($0) } ?? .null
        case .string:
            if arguments.count > 1, case .date(let seconds) = arguments[0] {
                return .string(
                    dateFormatter(text(1)).string(
                        from: Date(timeIntervalSinceReferenceDate: seconds)))
            }
            return arguments[0].text.map { .string($0) } ?? .null
        case .unarchive:
            guard case .data(let bytes) = arguments[0] else { return .null }
            return .structured(
                try located(column) { () throws(ExpressionError) in
                    try RecordValue(archive: bytes)
                })
        case .jsonValue:
            let bytes: Data
            switch arguments[0] {
            case .data(let data): bytes = data
            case .string(let text): bytes = Data(text.utf8)
            default: return .null
            }
            return .structured(
                try located(column) { () throws(ExpressionError) in try RecordValue(json: bytes)
                })
        case .json:
            return .data(arguments[0].structured.jsonData())
        case .archive:
            return .data(
                try located(column) { () throws(ExpressionError) in
                    try arguments[0].structured.archiveData()
                })
        case .coalesce, .ifThen, .concatenate:
            return .null  // Handled before the arguments are evaluated.
        }
    }

    /// `body`'s result, its error placed at the call's `column`.
    private func located<T>(
        _ column: Int, _ body: () throws(ExpressionError) -> T
    ) throws(ExpressionError) -> T {
        do {
            return try body()
        } catch {
            throw ExpressionError(column: column, message: error.message)
        }
    }

    /// An integer from a whole-valued real.
    private func whole(_ number: Double, column: Int) throws(ExpressionError) -> MappingValue {
        guard let integer = Int64(exactly: number) else {
            throw ExpressionError(
                column: column, message: "\(number) is too large for an integer")
        }
        return .integer(integer)
    }

    /// Every match of `pattern` in `text`: its first capture group when it
    /// has one (and it took part), else the whole match.
    ///
    /// - Throws: ``ExpressionError`` naming the pattern when a search hits
    ///   its ``RegexLimits``.
    private func matches(
        _ text: String, pattern: String, column: Int
    ) throws(ExpressionError) -> [String] {
        do {
            return try regex(pattern).allMatches(in: text).map { match in
                let hasGroup = match.ranges.count > 1 && match.ranges[1] != nil
                return String(hasGroup ? match.group(1) ?? "" : match.matchedText)
            }
        } catch {
            throw ExpressionError(column: column, message: "\(error)")
        }
    }
}
