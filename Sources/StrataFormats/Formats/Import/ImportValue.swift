import Foundation

/// A value read from a nested input format (a plist, JSON, a txt block),
/// before it is converted to an attribute's type.
///
/// Text stays text: the importer converts it by the attribute it maps to
/// (a date from ISO 8601, a number from its digits), so readers do not guess.
public enum ImportValue: Hashable, Sendable {
    /// JSON `null`; an absent value.
    case null
    /// A string.
    case text(String)
    /// An integer (JSON numbers without fraction or exponent, plist `<integer>`).
    case integer(Int64)
    /// An unsigned integer above `Int64.max` (plist integers up to 2⁶⁴−1).
    case unsignedInteger(UInt64)
    /// A real number.
    case real(Double)
    /// A boolean.
    case boolean(Bool)
    /// A date (plist `<date>`).
    case date(Date)
    /// Bytes (plist `<data>`).
    case data(Data)
    /// An ordered list of values, each with its own position.
    case array([ImportField])
    /// Keys and values in input order; each field's ``ImportField/key`` is the key.
    case dictionary([ImportField])
}

/// One value of a record together with its key and where it was read.
public struct ImportField: Hashable, Sendable {
    /// The key in a dictionary, or the element's index (as text) in an array.
    public var key: String
    /// The value.
    public var value: ImportValue
    /// Where the value starts.
    public var position: SourcePosition

    /// Creates a field.
    public init(key: String, value: ImportValue, position: SourcePosition) {
        self.key = key
        self.value = value
        self.position = position
    }
}

/// One record of a nested input: a dictionary of fields.
public struct ImportRecord: Hashable, Sendable {
    /// The fields, in input order.
    public var fields: [ImportField]
    /// Where the record starts.
    public var position: SourcePosition
    /// The key of the array the record came from when the root is a
    /// dictionary of arrays (`{"recipes": [...], "types": [...]}`); it names
    /// the entity when the import does not.
    public var group: String?
    /// The record's text exactly as it is in the input, when the reader can
    /// give it (JSON, txt), for the rejects file.
    public var originalText: Data?

    /// Creates a record.
    public init(
        fields: [ImportField], position: SourcePosition, group: String? = nil,
        originalText: Data? = nil
    ) {
        self.fields = fields
        self.position = position
        self.group = group
        self.originalText = originalText
    }
}
