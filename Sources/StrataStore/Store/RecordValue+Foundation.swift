import Foundation
import StrataCore

extension RecordValue {
    /// Converts a value read by `PropertyListSerialization`; nil for
    /// anything a property list cannot hold. Dictionary keys come in
    /// code-point order, the order ``BinaryPropertyList/encode(_:)`` writes,
    /// so a plist read either way gives equal values.
    package init?(foundation value: Any) {
        switch value {
        // Booleans come back as Bool (checked before NSNumber, which a Bool also is).
        case let boolean as Bool where !(value is NSNumber) || type(of: value) == Bool.self:
            self = .boolean(boolean)
        case let string as String: self = .text(string)
        case let data as Data: self = .data(data)
        case let date as Date: self = .date(date)
        case let array as [Any]:
            self = .array(values: array.compactMap { RecordValue(foundation: $0) })
        case let dictionary as [String: Any]:
            let keys = dictionary.keys.sorted {
                $0.unicodeScalars.lexicographicallyPrecedes($1.unicodeScalars)
            }
            self = .dictionary(
                keys.compactMap { key in
                    dictionary[key].flatMap { RecordValue(foundation: $0) }
                        .map { RecordField(key: key, value: $0) }
                })
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

    /// Whether `PropertyListSerialization` reads this value (decoded by
    /// ``BinaryPropertyList``) as the same value: false when it holds a
    /// null, a UID or a set, which Foundation reads otherwise or not at all.
    var isReadAlikeByFoundation: Bool {
        var pending = [self]
        while let value = pending.popLast() {
            switch value {
            case .null, .uid, .set: return false
            case .array(let fields), .dictionary(let fields): pending += fields.map(\.value)
            default: continue
            }
        }
        return true
    }
}
