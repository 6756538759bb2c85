import Foundation
import StrataQuery
import StrataSchema

/// A Swift type whose values an attribute can hold: `String`, `Int`,
/// `Int16`, `Int32`, `Int64`, `Double`, `Float`, `Decimal`, `Bool`, `Date`,
/// `Data`, `UUID`, `URL`, and ``AttributeValue`` itself.
///
/// `ManagedObject.set(_:_:)` takes any of them and checks the value against the
/// attribute's declared type (an `Int` into an integer16 attribute must be
/// in its range); ``ManagedObject/get(_:as:)`` reads one back, and the
/// properties of generated classes convert through the same members. They
/// are also predicate arguments:
///
/// ```swift
/// try entry.set("wordCount", 3)
/// let words = try entry.get("wordCount", as: Int.self)
/// let long = try context.findFirst("DiaryEntry", where: "wordCount > %d", 100)
/// ```
public protocol AttributeValueConvertible: PredicateArgumentConvertible {
    /// The value as an attribute holds it, before the check against the
    /// attribute's declared type.
    var attributeValue: AttributeValue { get }

    /// The value read from an attribute; nil when this type cannot hold it
    /// (another kind, or a number out of range).
    init?(attributeValue: AttributeValue)

    /// Whether attributes of `type` read as this type.
    static func canRead(_ type: AttributeType) -> Bool
}

extension AttributeValueConvertible {
    /// The value as a `%@` argument.
    public var predicateArgument: PredicateArgument { .value(PredicateValue(attributeValue)) }
}

extension AttributeValue: AttributeValueConvertible {
    /// The value itself.
    public var attributeValue: AttributeValue { self }

    /// The value itself.
    public init?(attributeValue: AttributeValue) { self = attributeValue }

    /// Every attribute reads as an ``AttributeValue``.
    public static func canRead(_ type: AttributeType) -> Bool { true }
}

extension String: AttributeValueConvertible {
    /// `.string`.
    public var attributeValue: AttributeValue { .string(self) }

    /// The text of a string or URI attribute.
    public init?(attributeValue: AttributeValue) {
        guard case .string(let text) = attributeValue else { return nil }
        self = text
    }

    /// String and URI attributes.
    public static func canRead(_ type: AttributeType) -> Bool { type == .string || type == .uri }
}

extension Bool: AttributeValueConvertible {
    /// `.boolean`.
    public var attributeValue: AttributeValue { .boolean(self) }

    /// The value of a boolean attribute (an integer 0 or 1 read from a
    /// store included).
    public init?(attributeValue: AttributeValue) {
        switch attributeValue {
        case .boolean(let value): self = value
        case .integer(0): self = false
        case .integer(1): self = true
        default: return nil
        }
    }

    /// Boolean attributes.
    public static func canRead(_ type: AttributeType) -> Bool { type == .boolean }
}

extension Date: AttributeValueConvertible {
    /// `.date`, in seconds since 2001-01-01.
    public var attributeValue: AttributeValue { .date(timeIntervalSinceReferenceDate) }

    /// The value of a date attribute.
    public init?(attributeValue: AttributeValue) {
        guard case .date(let seconds) = attributeValue else { return nil }
        self.init(timeIntervalSinceReferenceDate: seconds)
    }

    /// Date attributes.
    public static func canRead(_ type: AttributeType) -> Bool { type == .date }
}

extension Data: AttributeValueConvertible {
    /// `.data`.
    public var attributeValue: AttributeValue { .data(self) }

    /// The bytes of a binary or transformable attribute.
    public init?(attributeValue: AttributeValue) {
        guard case .data(let bytes) = attributeValue else { return nil }
        self = bytes
    }

    /// Binary and transformable attributes.
    public static func canRead(_ type: AttributeType) -> Bool {
        type == .binary || type == .transformable
    }
}

extension UUID: AttributeValueConvertible {
    /// `.uuid`.
    public var attributeValue: AttributeValue { .uuid(self) }

    /// The value of a UUID attribute.
    public init?(attributeValue: AttributeValue) {
        guard case .uuid(let uuid) = attributeValue else { return nil }
        self = uuid
    }

    /// UUID attributes.
    public static func canRead(_ type: AttributeType) -> Bool { type == .uuid }
}

extension URL: AttributeValueConvertible {
    /// `.string` with the URL's absolute string, as a URI attribute stores it.
    public var attributeValue: AttributeValue { .string(absoluteString) }

    /// The URL of a URI attribute; nil when its text is not a URL.
    public init?(attributeValue: AttributeValue) {
        guard case .string(let text) = attributeValue, let url = URL(string: text) else {
            return nil
        }
        self = url
    }

    /// URI attributes.
    public static func canRead(_ type: AttributeType) -> Bool { type == .uri }
}

extension Double: AttributeValueConvertible {
    /// `.real`.
    public var attributeValue: AttributeValue { .real(self) }

    /// The value of a double, float, decimal or integer attribute.
    public init?(attributeValue: AttributeValue) {
        switch attributeValue {
        case .real(let value): self = value
        case .integer(let value): self = Double(value)
        default: return nil
        }
    }

    /// Double, float, decimal and integer attributes.
    public static func canRead(_ type: AttributeType) -> Bool {
        type.isReal || type.isInteger
    }
}

extension Float: AttributeValueConvertible {
    /// `.real`.
    public var attributeValue: AttributeValue { .real(Double(self)) }

    /// The value of a double, float or decimal attribute, rounded to a Float
    /// (an integer read from a store included).
    public init?(attributeValue: AttributeValue) {
        guard let value = Double(attributeValue: attributeValue) else { return nil }
        self = Float(value)
    }

    /// Double, float and decimal attributes.
    public static func canRead(_ type: AttributeType) -> Bool { type.isReal }
}

extension Decimal: AttributeValueConvertible {
    /// `.real` (the store keeps decimals as SQLite reals, as Core Data does).
    public var attributeValue: AttributeValue { .real(NSDecimalNumber(decimal: self).doubleValue) }

    /// The value of a double, float or decimal attribute: the shortest
    /// decimal that reads back as the stored double (`0.1`, not
    /// `0.1000000000000000512`).
    public init?(attributeValue: AttributeValue) {
        guard let value = Double(attributeValue: attributeValue), value.isFinite,
            let decimal = Decimal(string: "\(value)", locale: Locale(identifier: "en_US_POSIX"))
        else { return nil }
        self = decimal
    }

    /// Double, float and decimal attributes.
    public static func canRead(_ type: AttributeType) -> Bool { type.isReal }
}

/// The integer types share one conversion: `.integer`, range-checked when
/// read (and, by the attribute's declared type, when set).
extension AttributeValueConvertible where Self: FixedWidthInteger {
    /// `.integer`; a `UInt64`-like value beyond Int64 clamps, and then fails
    /// the range check of any integer attribute.
    public var attributeValue: AttributeValue { .integer(Int64(clamping: self)) }

    /// The value of an integer attribute; nil when out of this type's range.
    public init?(attributeValue: AttributeValue) {
        guard case .integer(let value) = attributeValue, let exact = Self(exactly: value) else {
            return nil
        }
        self = exact
    }

    /// Integer attributes.
    public static func canRead(_ type: AttributeType) -> Bool { type.isInteger }
}

extension Int: AttributeValueConvertible {}
extension Int16: AttributeValueConvertible {}
extension Int32: AttributeValueConvertible {}
extension Int64: AttributeValueConvertible {}

extension AttributeType {
    /// double, float or decimal.
    var isReal: Bool { isNumeric && !isInteger }
}
