import Foundation

/// A property-list value kept as a Sendable, comparable Swift value, for
/// metadata keys Strata carries through without interpreting them.
public indirect enum PlistValue: Hashable, Sendable {
    /// A string.
    case string(String)
    /// An integer.
    case integer(Int64)
    /// A real number.
    case real(Double)
    /// A boolean.
    case boolean(Bool)
    /// A date.
    case date(Date)
    /// Bytes.
    case data(Data)
    /// An array.
    case array([PlistValue])
    /// A dictionary with string keys.
    case dictionary([String: PlistValue])

    /// Converts a value from `PropertyListSerialization`; nil for anything a
    /// property list cannot hold.
    public init?(_ value: Any) {
        switch value {
        // Booleans come back as Bool (checked before NSNumber, which a Bool also is).
        case let boolean as Bool where !(value is NSNumber) || type(of: value) == Bool.self:
            self = .boolean(boolean)
        case let string as String: self = .string(string)
        case let data as Data: self = .data(data)
        case let date as Date: self = .date(date)
        case let array as [Any]:
            self = .array(array.compactMap(PlistValue.init))
        case let dictionary as [String: Any]:
            self = .dictionary(dictionary.compactMapValues(PlistValue.init))
        case let number as NSNumber:
            // objCType tells integers ("i", "q", …) from reals ("d", "f").
            let kind = String(cString: number.objCType)
            if kind == "d" || kind == "f" {
                self = .real(number.doubleValue)
            } else {
                self = .integer(number.int64Value)
            }
        default:
            return nil
        }
    }

    /// Converts a value read by ``BinaryPropertyList`` as
    /// ``init(_:)`` converts what `PropertyListSerialization` reads from the
    /// same bytes; nil for a value without a counterpart (a null, a UID, a
    /// set, or a container holding one).
    init?(exactly object: PlistObject) {
        switch object {
        case .boolean(let flag): self = .boolean(flag)
        case .integer(let number): self = .integer(number)
        case .real(let number): self = .real(number)
        case .date(let date): self = .date(date)
        case .data(let data): self = .data(data)
        case .string(let text): self = .string(text)
        case .array(let objects):
            var values: [PlistValue] = []
            for object in objects {
                guard let value = PlistValue(exactly: object) else { return nil }
                values.append(value)
            }
            self = .array(values)
        case .dictionary(let objects):
            var values: [String: PlistValue] = [:]
            for (key, object) in objects {
                guard let value = PlistValue(exactly: object) else { return nil }
                values[key] = value
            }
            self = .dictionary(values)
        case .null, .uid, .set:
            return nil
        }
    }

    /// The value as ``BinaryPropertyList/encode(_:)`` writes it.
    var plistObject: PlistObject {
        switch self {
        case .string(let value): .string(value)
        case .integer(let value): .integer(value)
        case .real(let value): .real(value)
        case .boolean(let value): .boolean(value)
        case .date(let value): .date(value)
        case .data(let value): .data(value)
        case .array(let values): .array(values.map(\.plistObject))
        case .dictionary(let values): .dictionary(values.mapValues(\.plistObject))
        }
    }

    /// The value as `PropertyListSerialization` writes it.
    ///
    /// Strata writes property lists itself (``BinaryPropertyList``), and
    /// Foundation's writer fails in a statically linked program.
    @available(*, deprecated, message: "write property lists with BinaryPropertyList.encode")
    public var foundationValue: Any { foundationValueBody }

    /// ``foundationValue`` without the deprecation, for its own recursion.
    private var foundationValueBody: Any {
        switch self {
        case .string(let value): return value
        case .integer(let value): return NSNumber(value: value)
        case .real(let value): return NSNumber(value: value)
        case .boolean(let value): return NSNumber(value: value)
        case .date(let value): return value
        case .data(let value): return value
        case .array(let values): return values.map { $0.foundationValueBody }
        case .dictionary(let values): return values.mapValues { $0.foundationValueBody }
        }
    }
}
