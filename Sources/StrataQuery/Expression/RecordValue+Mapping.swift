import Foundation
import StrataCore
import StrataSchema

/// A record value in mapping expressions: what `unarchive(x)` and
/// `jsonValue(x)` give, and what `json(x)` and `archive(x)` write.
///
/// Reading one from input is bounded: at most ``maximumDepth`` levels and
/// ``maximumElements`` values in all, so a hostile archive or document
/// cannot exhaust the stack or memory.
extension RecordValue {
    /// The deepest nesting read from an archive or a JSON document.
    static let maximumDepth = 64
    /// The most values read from one archive or JSON document.
    static let maximumElements = 100_000

    /// The kind of value, in the mapping language's words, for messages.
    var mappingKind: String {
        switch self {
        case .null: "nil"
        case .boolean: "boolean"
        case .integer, .unsignedInteger, .uid: "integer"
        case .real: "number"
        case .text: "string"
        case .date: "date"
        case .data: "binary"
        case .array, .set: "array"
        case .dictionary: "dictionary"
        }
    }

    /// Counts one more value read at `depth` against the limits.
    ///
    /// - Throws: ``ExpressionError`` naming `what` (`unarchive: the
    ///   archive`) past ``maximumDepth`` or ``maximumElements``.
    static func spend(_ budget: inout Int, depth: Int, reading what: String)
        throws(ExpressionError)
    {
        budget -= 1
        guard depth <= maximumDepth, budget >= 0 else {
            throw ExpressionError(
                column: 1,
                message: "\(what) nests deeper than \(maximumDepth) levels or "
                    + "holds more than \(maximumElements) values")
        }
    }

    // MARK: - JSON

    /// The value as JSON bytes, on one line: keys sorted by their UTF-8
    /// bytes, whole reals without a fraction, dates as ISO 8601 text, bytes
    /// as base64 text.
    func jsonData() -> Data {
        var writer = JSONWriter(style: JSONWriter.Style(indent: nil, wholeRealsAsIntegers: true))
        writer.value(self, sortingKeys: true)
        return Data(writer.bytes)
    }

    /// The value of JSON bytes (a document or a single value), read by
    /// Strata's one JSON reader (``JSONReader``); a key given twice keeps
    /// its last value.
    ///
    /// - Throws: ``ExpressionError`` for bytes that are not JSON, nest
    ///   deeper than ``maximumDepth`` or hold more than ``maximumElements``
    ///   values.
    init(json data: Data) throws(ExpressionError) {
        let node: RecordField
        do {
            node = try JSONReader.parse(data)
        } catch {
            throw ExpressionError(column: 1, message: "jsonValue: the bytes are not JSON")
        }
        var budget = Self.maximumElements
        self = try Self.fromJSON(node.value, depth: 0, budget: &budget)
    }

    /// `value` without positions, each key once (its last value), within
    /// the limits.
    private static func fromJSON(
        _ value: RecordValue, depth: Int, budget: inout Int
    ) throws(ExpressionError) -> RecordValue {
        try spend(&budget, depth: depth, reading: "jsonValue: the document")
        switch value {
        case .array(let items), .set(let items):
            var values: [RecordValue] = []
            for item in items {
                values.append(try fromJSON(item.value, depth: depth + 1, budget: &budget))
            }
            return .array(values: values)
        case .dictionary(let members):
            var fields: [RecordField] = []
            var indexes: [String: Int] = [:]
            for member in members {
                let value = try fromJSON(member.value, depth: depth + 1, budget: &budget)
                if let index = indexes[member.key] {
                    fields[index].value = value
                } else {
                    indexes[member.key] = fields.count
                    fields.append(RecordField(key: member.key, value: value))
                }
            }
            return .dictionary(fields)
        default:
            return value
        }
    }
}
