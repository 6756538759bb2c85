import Foundation
import StrataCore
import StrataSchema

/// A value while a mapping expression is evaluated.
package enum MappingValue: Hashable, Sendable {
    /// No value; most operations on it give nil again.
    case null
    /// Text.
    case string(String)
    /// A whole number.
    case integer(Int64)
    /// A number with a fraction.
    case real(Double)
    /// true or false.
    case boolean(Bool)
    /// Seconds since 2001-01-01 00:00 UTC.
    case date(Double)
    /// Bytes.
    case data(Data)
    /// A UUID.
    case uuid(UUID)
    /// A list of strings.
    case list([String])
    /// A value with structure, from `unarchive` or `jsonValue`.
    case structured(RecordValue)

    /// The value of a stored attribute value.
    package init(_ value: AttributeValue?) {
        switch value {
        case nil: self = .null
        case .integer(let number): self = .integer(number)
        case .real(let number): self = .real(number)
        case .string(let text): self = .string(text)
        case .boolean(let flag): self = .boolean(flag)
        case .date(let seconds): self = .date(seconds)
        case .data(let bytes): self = .data(bytes)
        case .uuid(let uuid): self = .uuid(uuid)
        }
    }

    /// The value of an expression's literal. An object reference has no
    /// mapping value (the checker refuses it) and reads as nil; a list keeps
    /// its strings.
    init(_ literal: PredicateValue) {
        switch literal {
        case .null, .object: self = .null
        case .boolean(let flag): self = .boolean(flag)
        case .integer(let number): self = .integer(number)
        case .real(let number): self = .real(number)
        case .string(let text): self = .string(text)
        case .date(let seconds): self = .date(seconds)
        case .data(let bytes): self = .data(bytes)
        case .uuid(let uuid): self = .uuid(uuid)
        case .array(let items):
            self = .list(items.compactMap { if case .string(let text) = $0 { text } else { nil } })
        }
    }

    package var isNull: Bool { self == .null }

    /// The number, for integers and reals.
    var number: Double? {
        switch self {
        case .integer(let value): Double(value)
        case .real(let value): value
        default: nil
        }
    }

    /// The text form used by `string(…)` and `concatenate`: integers
    /// without a fraction, reals in their shortest form, dates in ISO 8601
    /// (UTC), UUIDs upper-case, bytes in base64, lists joined by ", ".
    package var text: String? {
        switch self {
        case .null: nil
        case .string(let text): text
        case .integer(let value): String(value)
        case .real(let value):
            JSONWriter.numberText(value)
        case .boolean(let flag): flag ? "true" : "false"
        case .date(let seconds): ISO8601Date.string(from: seconds) ?? String(seconds)
        case .data(let bytes): bytes.base64EncodedString()
        case .uuid(let uuid): uuid.uuidString
        case .list(let items): items.joined(separator: ", ")
        case .structured(let value):
            switch value {
            case .array, .set, .dictionary:
                String(decoding: value.jsonData(), as: UTF8.self)
            default: MappingValue(scalar: value).text
            }
        }
    }

    /// A single value of a structured one; arrays and dictionaries stay
    /// structured.
    package init(scalar value: RecordValue) {
        switch value {
        case .null: self = .null
        case .boolean(let flag): self = .boolean(flag)
        case .integer(let number): self = .integer(number)
        case .unsignedInteger(let number), .uid(let number): self = .real(Double(number))
        case .real(let number): self = .real(number)
        case .text(let text): self = .string(text)
        case .date(let date): self = .date(date.timeIntervalSinceReferenceDate)
        case .data(let bytes): self = .data(bytes)
        case .array, .set, .dictionary: self = .structured(value)
        }
    }

    /// The value as a structured one, for `json` and `archive`.
    var structured: RecordValue {
        switch self {
        case .null: .null
        case .string(let text): .text(text)
        case .integer(let number): .integer(number)
        case .real(let number): .real(number)
        case .boolean(let flag): .boolean(flag)
        case .date(let seconds): .date(Date(timeIntervalSinceReferenceDate: seconds))
        case .data(let bytes): .data(bytes)
        case .uuid(let uuid): .text(uuid.uuidString)
        case .list(let items): .array(values: items.map { .text($0) })
        case .structured(let value): value
        }
    }

    /// The value stored in an attribute of `type`, or nil for `.null`.
    ///
    /// - Throws: ``ExpressionError`` (column 1) when the value does not fit
    ///   the attribute: an integer beyond the attribute's width, a value of
    ///   another kind.
    package func attributeValue(for attribute: Attribute) throws(ExpressionError) -> AttributeValue?
    {
        func refuse(_ message: String) -> ExpressionError {
            ExpressionError(column: 1, message: message)
        }
        switch (self, attribute.type) {
        case (.null, _): return nil
        case (.structured(let value), _):
            let single = MappingValue(scalar: value)
            if case .structured = single {
                throw refuse(
                    "\(value.mappingKind == "array" ? "an array" : "a dictionary") does not fit "
                        + "\(attribute.name) (\(attribute.type.rawValue)); store it with json(…) "
                        + "or archive(…)")
            }
            if case .string(let text) = single, attribute.type == .uuid,
                let uuid = UUID(uuidString: text)
            {
                return .uuid(uuid)
            }
            return try single.attributeValue(for: attribute)
        case (.integer(let value), .integer16), (.integer(let value), .integer32),
            (.integer(let value), .integer64):
            let range: ClosedRange<Int64> =
                switch attribute.type {
                case .integer16: Int64(Int16.min)...Int64(Int16.max)
                case .integer32: Int64(Int32.min)...Int64(Int32.max)
                default: Int64.min...Int64.max
                }
            guard range.contains(value) else {
                throw refuse(
                    "\(value) does not fit \(attribute.name) (\(attribute.type.rawValue))")
            }
            return .integer(value)
        case (.integer(let value), .double), (.integer(let value), .float),
            (.integer(let value), .decimal):
            return .real(Double(value))
        case (.real(let value), .double), (.real(let value), .float), (.real(let value), .decimal):
            return .real(value)
        case (.string(let text), .string), (.string(let text), .uri): return .string(text)
        case (.boolean(let flag), .boolean): return .boolean(flag)
        case (.date(let seconds), .date): return .date(seconds)
        case (.data(let bytes), .binary), (.data(let bytes), .transformable): return .data(bytes)
        case (.uuid(let uuid), .uuid): return .uuid(uuid)
        default:
            throw refuse(
                "a \(kind) value does not fit \(attribute.name) (\(attribute.type.rawValue))")
        }
    }

    /// The kind of value, for messages.
    var kind: String {
        switch self {
        case .null: "nil"
        case .string: "string"
        case .integer: "integer"
        case .real: "number"
        case .boolean: "boolean"
        case .date: "date"
        case .data: "binary"
        case .uuid: "uuid"
        case .list: "list"
        case .structured(let value): value.mappingKind
        }
    }
}
