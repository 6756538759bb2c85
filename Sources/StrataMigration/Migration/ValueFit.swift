import Foundation
import StrataCore
import StrataSchema

/// Whether a stored value would fit an attribute's new type when a
/// migration changes the type in a way that is not a widening (a narrowing,
/// text ↔ number, date ↔ number): what the dry run counts for such a step.
///
/// A value fits when the new type can hold it unchanged: an integer within
/// the new width, a real with no fraction for an integer type, text that
/// reads as a number for a number type or as an ISO-8601 date for a date,
/// anything but bytes for a string.
enum ValueFit {
    /// Whether `value`, as the store holds it, fits `type`.
    static func fits(_ value: SQLiteValue, _ type: AttributeType) -> Bool {
        switch value {
        case .null: return true
        case .integer(let number): return fits(integer: number, type)
        case .real(let number): return fits(real: number, type)
        case .text(let text): return fits(text: text, type)
        case .blob(let bytes):
            switch type {
            case .binary, .transformable: return true
            case .uuid: return bytes.count == 16
            default: return false
            }
        }
    }

    private static func fits(integer number: Int64, _ type: AttributeType) -> Bool {
        switch type {
        case .integer16: Int64(Int16.min)...Int64(Int16.max) ~= number
        case .integer32: Int64(Int32.min)...Int64(Int32.max) ~= number
        case .integer64, .decimal, .double, .float, .string, .date: true
        case .boolean: number == 0 || number == 1
        case .binary, .uuid, .uri, .transformable: false
        }
    }

    private static func fits(real number: Double, _ type: AttributeType) -> Bool {
        switch type {
        case .integer16, .integer32, .integer64, .boolean:
            // Int64(exactly:) is nil for fractions, infinities and NaN.
            guard let whole = Int64(exactly: number) else { return false }
            return fits(integer: whole, type)
        case .float:
            return number.isNaN || abs(number) <= Double(Float.greatestFiniteMagnitude)
                || number.isInfinite
        case .decimal, .double, .string, .date: return true
        case .binary, .uuid, .uri, .transformable: return false
        }
    }

    private static func fits(text: String, _ type: AttributeType) -> Bool {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        switch type {
        case .string, .uri: return true
        case .integer16, .integer32, .integer64, .boolean:
            guard let number = Int64(trimmed) else { return false }
            return fits(integer: number, type)
        case .decimal, .double, .float:
            guard let number = Double(trimmed), number.isFinite else { return false }
            return fits(real: number, type)
        case .date: return ISO8601Date.seconds(from: trimmed) != nil
        case .uuid: return UUID(uuidString: trimmed) != nil
        case .binary, .transformable: return false
        }
    }
}
