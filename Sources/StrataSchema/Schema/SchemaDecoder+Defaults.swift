import Foundation
import StrataValues

// MARK: - Default values and typed literals

extension SchemaDecoder.State {
    mutating func decodeDefault(
        _ node: RecordField, type: AttributeType, at path: String
    ) -> AttributeDefault? {
        switch type {
        case .string, .uri:
            guard case .text(let text) = node.value else {
                report("expected a string, found \(node.summary)", at: path, node: node)
                return nil
            }
            if type == .uri, URL(string: text) == nil {
                report("expected a URI, found \(node.summary)", at: path, node: node)
                return nil
            }
            return .literal(.string(text))
        case .integer16, .integer32, .integer64:
            guard let range = integerRange(type) else { return nil }
            return integer(node, at: path, in: range, expected: integerExpectation(type))
                .map { .literal(.integer($0)) }
        case .decimal, .double, .float:
            return decodeReal(node, type: type, at: path).map { .literal(.real($0)) }
        case .boolean:
            guard case .boolean(let flag) = node.value else {
                report("expected true or false, found \(node.summary)", at: path, node: node)
                return nil
            }
            return .literal(.boolean(flag))
        case .date:
            guard let date = decodeDate(node, at: path, allowNow: true) else { return nil }
            return date.map { .literal(.date($0)) } ?? .now
        case .binary, .transformable:
            guard case .text(let text) = node.value, let data = Data(base64Encoded: text) else {
                report("expected base64 text, found \(node.summary)", at: path, node: node)
                return nil
            }
            return .literal(.data(data))
        case .uuid:
            if case .text("uuid") = node.value { return .uuid }
            guard case .text(let text) = node.value, let uuid = UUID(uuidString: text) else {
                report(
                    "expected a UUID such as \"E621E1F8-C36C-495A-93FC-0C247A3E6E5F\" or "
                        + "\"uuid\" (a new one for each object), found \(node.summary)",
                    at: path, node: node)
                return nil
            }
            return .literal(.uuid(uuid))
        }
    }

    /// A date as seconds since 2001; `.some(nil)` stands for `"now"`.
    mutating func decodeDate(_ node: RecordField, at path: String, allowNow: Bool) -> Double?? {
        switch node.value {
        case .integer(let seconds):
            return .some(Double(seconds))
        case .real(let seconds):
            return .some(seconds)
        case .text("now") where allowNow:
            return .some(nil)
        case .text(let text):
            if let seconds = ISO8601Date.seconds(from: text) { return .some(seconds) }
        default:
            break
        }
        let now = allowNow ? ", \"now\"" : ""
        report(
            "expected an ISO-8601 date such as \"2001-01-01T00:00:00Z\"\(now) or seconds "
                + "since 2001-01-01, found \(node.summary)", at: path, node: node)
        return nil
    }

    mutating func decodeReal(_ node: RecordField, type: AttributeType, at path: String) -> Double? {
        let value: Double
        switch node.value {
        case .integer(let integer): value = Double(integer)
        case .real(let real): value = real
        default:
            report("expected a number, found \(node.summary)", at: path, node: node)
            return nil
        }
        if type == .float, abs(value) > Double(Float.greatestFiniteMagnitude) {
            report(
                "expected a number within the range of float, found \(node.summary)",
                at: path, node: node)
            return nil
        }
        return value
    }

    func integerRange(_ type: AttributeType) -> ClosedRange<Int64>? {
        switch type {
        case .integer16: Int64(Int16.min)...Int64(Int16.max)
        case .integer32: Int64(Int32.min)...Int64(Int32.max)
        case .integer64: Int64.min...Int64.max
        default: nil
        }
    }

    func integerExpectation(_ type: AttributeType) -> String {
        guard let range = integerRange(type) else { return "an integer" }
        return "an integer from \(range.lowerBound) to \(range.upperBound) (\(type.rawValue))"
    }
}
