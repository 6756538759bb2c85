import Foundation

/// A typed value of an attribute: what a schema default, a store column or an
/// imported field holds once it is checked against its ``AttributeType``.
public enum AttributeValue: Hashable, Sendable {
    /// An integer of any width (integer16/32/64) or a boolean stored as 0/1.
    case integer(Int64)
    /// A double, float or decimal.
    case real(Double)
    /// A string or URI.
    case string(String)
    /// A boolean.
    case boolean(Bool)
    /// A date, as seconds since 2001-01-01T00:00:00Z (Core Data's reference date).
    case date(Double)
    /// Bytes of a binary or transformable attribute.
    case data(Data)
    /// A UUID.
    case uuid(UUID)
}

/// The default of an attribute in a schema: a literal, or a value computed when
/// an object is inserted.
public enum AttributeDefault: Hashable, Sendable {
    /// A fixed value of the attribute's type.
    case literal(AttributeValue)
    /// The current date and time at insertion (dates only).
    case now
    /// A fresh random UUID at insertion (uuids only).
    case uuid
}
