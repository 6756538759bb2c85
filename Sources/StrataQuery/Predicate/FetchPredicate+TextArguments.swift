import Foundation
import StrataCore
import StrataSchema

// MARK: - Arguments given as text

extension FetchPredicate {
    /// Parses a predicate whose arguments arrive as text (from a command
    /// line), typing each by what it is compared with: numbers for numeric
    /// attributes, ISO-8601 dates for dates (`2024-05-01` or
    /// `2024-05-01T12:00:00Z`), `YES`/`NO`/`true`/`false`/`1`/`0` for
    /// booleans, text otherwise. `%K` takes a key path, `%d`/`%i`/`%ld` an
    /// integer and `%f` a number whatever the comparison.
    ///
    /// ```swift
    /// let p = try FetchPredicate(
    ///     "creationTime > %@ AND body CONTAINS[cd] %@", textArguments: ["2024-05-01", "all"],
    ///     entity: "DiaryEntry", model: diary)
    /// ```
    ///
    /// - Throws: ``PredicateSyntaxError`` for text that does not parse or a
    ///   wrong number of arguments; ``FetchPredicateError`` (`typeMismatch`) for an
    ///   argument that is not of its comparison's type.
    public init(_ format: String, textArguments: [String], entity: String, model: Model) throws {
        let specifiers = FetchPredicate.specifiers(in: format)
        var arguments: [PredicateArgument] = []
        for (index, text) in textArguments.enumerated() {
            let specifier = index < specifiers.count ? specifiers[index] : "@"
            switch specifier {
            case "K":
                arguments.append(.keyPath(text))
            case "d", "i", "ld":
                guard let number = Int64(text) else {
                    throw PredicateSyntaxError(
                        predicate: format, column: 1,
                        message: "argument \(index + 1) ('%\(specifier)') is not an integer")
                }
                arguments.append(.value(.integer(number)))
            case "f":
                // Double() reads "nan" and "inf": no value a store holds.
                guard let number = Double(text), number.isFinite else {
                    throw PredicateSyntaxError(
                        predicate: format, column: 1,
                        message: "argument \(index + 1) ('%f') is not a finite number "
                            + "(nan and infinity compare with nothing a store holds)")
                }
                arguments.append(.value(.real(number)))
            default:
                arguments.append(.value(.string(text)))
            }
        }
        let parsed = try FetchPredicate(format, arguments: arguments)
        self = try parsed.typingStrings(entity: entity, model: model, format: format)
    }

    /// The format specifiers of `format` in order (`@`, `K`, `d`, `ld`, …),
    /// outside quoted strings; `%%` is not one.
    static func specifiers(in format: String) -> [String] {
        var result: [String] = []
        var quote: Character?
        let iterator = Array(format)
        var index = 0
        while index < iterator.count {
            let character = iterator[index]
            if let open = quote {
                if character == "\\" {
                    index += 1
                } else if character == open {
                    quote = nil
                }
            } else if character == "\"" || character == "'" {
                quote = character
            } else if character == "%", index + 1 < iterator.count {
                let next = iterator[index + 1]
                if next == "l", index + 2 < iterator.count, iterator[index + 2] == "d" {
                    result.append("ld")
                    index += 2
                } else if next != "%" {
                    result.append(String(next))
                    index += 1
                } else {
                    index += 1
                }
            }
            index += 1
        }
        return result
    }

    /// The predicate with string values converted to the type of the
    /// attribute they are compared with.
    private func typingStrings(entity: String, model: Model, format: String) throws
        -> FetchPredicate
    {
        switch self {
        case .constant: return self
        case .not(let inner):
            return .not(try inner.typingStrings(entity: entity, model: model, format: format))
        case .and(let parts):
            return .and(
                try parts.map { try $0.typingStrings(entity: entity, model: model, format: format) }
            )
        case .or(let parts):
            return .or(
                try parts.map { try $0.typingStrings(entity: entity, model: model, format: format) }
            )
        case .comparison(var comparison):
            let path: [String]
            switch comparison.left {
            case .keyPath(let keys, _): path = keys
            case .count: path = []
            default: return self
            }
            let type: AttributeType? =
                if case .count = comparison.left {
                    .integer64
                } else {
                    FetchPredicate.attributeType(at: path, from: entity, in: model)
                }
            guard let type, type != .string, type != .uri, type != .uuid else { return self }
            comparison.right = try FetchPredicate.typed(
                comparison.right, as: type, column: comparison.column, format: format)
            return .comparison(comparison)
        }
    }

    /// The type of the attribute at the end of `path`, following any
    /// relationships; nil when the path does not end at an attribute.
    static func attributeType(at path: [String], from entity: String, in model: Model)
        -> AttributeType?
    {
        var current = entity
        for (index, key) in path.enumerated() {
            if index == path.count - 1 {
                return model.allAttributes(of: current).first { $0.name == key }?.type
            }
            guard
                let relationship = model.allRelationships(of: current).first(where: {
                    $0.name == key
                })
            else { return nil }
            current = relationship.destination
        }
        return nil
    }

    private static func typed(
        _ expression: ExpressionNode, as type: AttributeType, column: Int, format: String
    ) throws -> ExpressionNode {
        switch expression {
        case .value(.string(let text), let valueColumn):
            guard let value = typedValue(text, as: type) else {
                throw FetchPredicateError(
                    .typeMismatch, predicate: format, column: column,
                    message:
                        "'\(text)' is not \(type == .date ? "an ISO-8601 date" : "a \(type.rawValue)")"
                )
            }
            return .value(value, column: valueColumn)
        case .value(.array(let items), let valueColumn):
            return .value(
                .array(
                    try items.map { item in
                        guard
                            case .value(let typed, _) = try typed(
                                .value(item), as: type, column: column, format: format)
                        else { return item }
                        return typed
                    }), column: valueColumn)
        case .list(let items):
            return .list(
                try items.map { try typed($0, as: type, column: column, format: format) })
        default:
            return expression
        }
    }

    /// A finite number: `Double` also reads "nan" and "inf".
    private static func finite(_ text: String) -> PredicateValue? {
        guard let number = Double(text), number.isFinite else { return nil }
        return .real(number)
    }

    private static func typedValue(_ text: String, as type: AttributeType) -> PredicateValue? {
        switch type {
        case .integer16, .integer32, .integer64:
            if let number = Int64(text) { return .integer(number) }
            return finite(text)
        case .double, .float, .decimal:
            return finite(text)
        case .boolean:
            switch text.lowercased() {
            case "yes", "true", "1": return .boolean(true)
            case "no", "false", "0": return .boolean(false)
            default: return nil
            }
        case .date:
            return ISO8601Date.seconds(from: text).map(PredicateValue.date)
        default:
            return .string(text)
        }
    }
}
