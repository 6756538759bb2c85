import Foundation

// Old archives (framework 251) store some counts as `NSDecimalNumber`
// objects instead of plain integers (coredata-mapping-models.md §2.2).

extension ArchivedValue {
    /// A whole number: a plain integer or boolean, a real without a
    /// fraction, or an `NSDecimalNumber` holding a whole number.
    ///
    /// - Throws: ``KeyedArchiveError`` for any other value, a fraction, or
    ///   a number beyond `Int64`.
    package func wholeNumberValue() throws -> Int64 {
        switch self {
        case .plain(.integer(let value)): return value
        case .plain(.boolean(let value)): return value ? 1 : 0
        case .plain(.real(let value)):
            guard let whole = Int64(exactly: value) else {
                throw KeyedArchiveError("expected a whole number, found \(value)")
            }
            return whole
        case .object(let object) where object.isKind(of: "NSDecimalNumber"):
            return try Self.decimal(object)
        default:
            throw KeyedArchiveError("expected a whole number, found \(kind)")
        }
    }

    /// An archived `NSDecimalNumber`: `NS.mantissa` (little-endian bytes),
    /// `NS.exponent`, `NS.negative`.
    private static func decimal(_ object: ArchivedObject) throws -> Int64 {
        let bytes = [UInt8](try object.data("NS.mantissa") ?? Data())
        // A mantissa wider than 64 bits is beyond any count or code.
        guard bytes.dropFirst(8).allSatisfy({ $0 == 0 }) else {
            throw KeyedArchiveError("NSDecimalNumber out of range", objectIndex: object.index)
        }
        var mantissa: UInt64 = 0
        for byte in bytes.prefix(8).reversed() { mantissa = mantissa << 8 | UInt64(byte) }
        var exponent = try object.integer("NS.exponent") ?? 0
        // Scale to exponent 0; a fraction or an overflow is no whole number.
        while exponent > 0 && mantissa != 0 {
            let (scaled, overflow) = mantissa.multipliedReportingOverflow(by: 10)
            guard !overflow else {
                throw KeyedArchiveError("NSDecimalNumber out of range", objectIndex: object.index)
            }
            mantissa = scaled
            exponent -= 1
        }
        while exponent < 0 && mantissa != 0 {
            guard mantissa % 10 == 0 else {
                throw KeyedArchiveError(
                    "expected a whole NSDecimalNumber, found a fraction", objectIndex: object.index)
            }
            mantissa /= 10
            exponent += 1
        }
        guard mantissa <= UInt64(Int64.max) else {
            throw KeyedArchiveError("NSDecimalNumber out of range", objectIndex: object.index)
        }
        let value = Int64(mantissa)
        return try object.bool("NS.negative") == true ? -value : value
    }
}
