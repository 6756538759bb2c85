import Foundation

/// A Swift type a generated property stores in an attribute: `String`,
/// `Int16`, `Int32`, `Int64`, `Double`, `Float`, `Decimal`, `Bool`, `Date`,
/// `Data`, `UUID` and `URL`.
public protocol TypedAttributeValue {
    /// The value read from `value`, or nil when the store holds something
    /// this type cannot represent (another kind of value, an integer out of
    /// range, a string that is no URL).
    init?(storedValue value: AttributeValue)
    /// The value as the context stores it.
    var storedValue: AttributeValue { get }
}

extension String: TypedAttributeValue {
    /// The string of a string (or URI) attribute.
    public init?(storedValue value: AttributeValue) {
        guard case .string(let string) = value else { return nil }
        self = string
    }
    /// `.string(self)`.
    public var storedValue: AttributeValue { .string(self) }
}

extension Int16: TypedAttributeValue {
    /// The integer, when it fits.
    public init?(storedValue value: AttributeValue) {
        guard case .integer(let number) = value, let fitting = Int16(exactly: number) else {
            return nil
        }
        self = fitting
    }
    /// `.integer(self)`.
    public var storedValue: AttributeValue { .integer(Int64(self)) }
}

extension Int32: TypedAttributeValue {
    /// The integer, when it fits.
    public init?(storedValue value: AttributeValue) {
        guard case .integer(let number) = value, let fitting = Int32(exactly: number) else {
            return nil
        }
        self = fitting
    }
    /// `.integer(self)`.
    public var storedValue: AttributeValue { .integer(Int64(self)) }
}

extension Int64: TypedAttributeValue {
    /// The integer.
    public init?(storedValue value: AttributeValue) {
        guard case .integer(let number) = value else { return nil }
        self = number
    }
    /// `.integer(self)`.
    public var storedValue: AttributeValue { .integer(self) }
}

extension Double: TypedAttributeValue {
    /// The number (an integer read from the store included).
    public init?(storedValue value: AttributeValue) {
        switch value {
        case .real(let number): self = number
        case .integer(let number): self = Double(number)
        default: return nil
        }
    }
    /// `.real(self)`.
    public var storedValue: AttributeValue { .real(self) }
}

extension Float: TypedAttributeValue {
    /// The number, rounded to a float.
    public init?(storedValue value: AttributeValue) {
        guard let number = Double(storedValue: value) else { return nil }
        self = Float(number)
    }
    /// `.real` of the float's exact double.
    public var storedValue: AttributeValue { .real(Double(self)) }
}

extension Decimal: TypedAttributeValue {
    /// The number. Decimals are stored as doubles (as Core Data's SQLite
    /// store does): the shortest decimal that reads back as that double.
    public init?(storedValue value: AttributeValue) {
        guard let number = Double(storedValue: value), number.isFinite,
            let decimal = Decimal(string: "\(number)", locale: Locale(identifier: "en_US_POSIX"))
        else { return nil }
        self = decimal
    }
    /// `.real` of the nearest double.
    public var storedValue: AttributeValue {
        .real(NSDecimalNumber(decimal: self).doubleValue)
    }
}

extension Bool: TypedAttributeValue {
    /// The boolean (an integer 0 or 1 read from the store included).
    public init?(storedValue value: AttributeValue) {
        switch value {
        case .boolean(let flag): self = flag
        case .integer(0): self = false
        case .integer(1): self = true
        default: return nil
        }
    }
    /// `.boolean(self)`.
    public var storedValue: AttributeValue { .boolean(self) }
}

extension Date: TypedAttributeValue {
    /// The date.
    public init?(storedValue value: AttributeValue) {
        guard case .date(let seconds) = value else { return nil }
        self = Date(timeIntervalSinceReferenceDate: seconds)
    }
    /// `.date` in seconds since 2001-01-01 (Core Data's reference date).
    public var storedValue: AttributeValue { .date(timeIntervalSinceReferenceDate) }
}

extension Data: TypedAttributeValue {
    /// The bytes of a binary (or transformable) attribute.
    public init?(storedValue value: AttributeValue) {
        guard case .data(let bytes) = value else { return nil }
        self = bytes
    }
    /// `.data(self)`.
    public var storedValue: AttributeValue { .data(self) }
}

extension UUID: TypedAttributeValue {
    /// The UUID.
    public init?(storedValue value: AttributeValue) {
        guard case .uuid(let uuid) = value else { return nil }
        self = uuid
    }
    /// `.uuid(self)`.
    public var storedValue: AttributeValue { .uuid(self) }
}

extension URL: TypedAttributeValue {
    /// The URL a URI attribute's string spells, nil when it spells none.
    public init?(storedValue value: AttributeValue) {
        guard case .string(let string) = value, let url = URL(string: string) else { return nil }
        self = url
    }
    /// `.string` of the absolute string.
    public var storedValue: AttributeValue { .string(absoluteString) }
}
