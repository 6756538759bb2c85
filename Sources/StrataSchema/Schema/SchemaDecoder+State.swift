import Foundation
import StrataValues

extension SchemaDecoder {
    /// The accepted members of one JSON object, keyed by name.
    struct Fields {
        var node: RecordField
        var path: String
        var values: [String: RecordField]

        func path(_ key: String) -> String { JSONPath.appending(path, key: key) }
    }

    /// What decoding one file found: issues, positions of every value, and the
    /// paths where a placeholder stands in for a value that could not be read.
    struct State {
        let file: String
        var issues: [SchemaIssue] = []
        var locations: [String: SourcePosition] = [:]
        /// Paths already reported; validation issues inside them would only
        /// repeat the same mistake, so they are dropped.
        var placeholders: Set<String> = []

        init(file: String) {
            self.file = file
        }

        mutating func report(_ message: String, at path: String, line: Int?, column: Int?) {
            issues.append(
                SchemaIssue(file: file, path: path, line: line, column: column, message: message))
        }

        mutating func report(_ message: String, at path: String, node: RecordField) {
            report(message, at: path, line: node.line, column: node.column)
        }

        // MARK: - Objects

        /// The members of an object with a fixed set of keys; reports a value
        /// that is not an object, unknown keys and repeated keys.
        mutating func fields(
            of node: RecordField, at path: String, allowed: [String], what: String
        ) -> Fields? {
            guard case .dictionary(let members) = node.value else {
                report("expected \(what) as an object, found \(node.summary)", at: path, node: node)
                return nil
            }
            var fields = Fields(node: node, path: path, values: [:])
            var firstMembers: [String: RecordField] = [:]
            for member in members {
                let memberPath = JSONPath.appending(path, key: member.key)
                if let first = firstMembers[member.key] {
                    reportDuplicate(member, first: first, at: memberPath)
                    continue
                }
                firstMembers[member.key] = member
                guard allowed.contains(member.key) else {
                    report(
                        "unknown key '\(member.key)' in \(what); allowed keys: "
                            + allowed.joined(separator: ", "),
                        at: memberPath, line: member.keyLine, column: member.keyColumn)
                    continue
                }
                fields.values[member.key] = member
                locations[memberPath] = SourcePosition(
                    file: file, line: member.keyLine, column: member.keyColumn)
            }
            return fields
        }

        /// The members of an object whose keys are names (entities, attributes,
        /// relationships), in document order, without repeated names.
        mutating func namedMembers(
            of node: RecordField, at path: String, what: String
        ) -> [(name: String, node: RecordField, path: String)] {
            guard case .dictionary(let members) = node.value else {
                report("expected \(what) as an object, found \(node.summary)", at: path, node: node)
                placeholders.insert(path)
                return []
            }
            var result: [(name: String, node: RecordField, path: String)] = []
            var firstMembers: [String: RecordField] = [:]
            for member in members {
                let memberPath = JSONPath.appending(path, key: member.key)
                if let first = firstMembers[member.key] {
                    reportDuplicate(member, first: first, at: memberPath)
                    continue
                }
                firstMembers[member.key] = member
                locations[memberPath] = SourcePosition(
                    file: file, line: member.keyLine, column: member.keyColumn)
                result.append((member.key, member, memberPath))
            }
            return result
        }

        mutating func reportDuplicate(_ member: RecordField, first: RecordField, at path: String) {
            report(
                "duplicate key '\(member.key)' (first at line \(first.keyLine), column "
                    + "\(first.keyColumn)); each key may appear once, this one is ignored",
                at: path, line: member.keyLine, column: member.keyColumn)
        }

        // MARK: - Values

        mutating func bool(_ fields: Fields, _ key: String) -> Bool? {
            guard let node = fields.values[key] else { return nil }
            guard case .boolean(let flag) = node.value else {
                report(
                    "expected true or false, found \(node.summary)", at: fields.path(key),
                    node: node)
                return nil
            }
            return flag
        }

        /// A non-empty string; reports a missing one when `required` names what
        /// the key should hold.
        mutating func string(
            _ fields: Fields, _ key: String, required: String? = nil, allowEmpty: Bool = false
        ) -> String? {
            guard let node = fields.values[key] else {
                if let required {
                    report(
                        "missing key '\(key)'; expected \(required)", at: fields.path,
                        node: fields.node)
                    placeholders.insert(fields.path(key))
                }
                return nil
            }
            guard case .text(let text) = node.value, allowEmpty || !text.isEmpty else {
                report(
                    "expected \(required ?? (allowEmpty ? "a string" : "a non-empty string")), "
                        + "found \(node.summary)", at: fields.path(key), node: node)
                if required != nil { placeholders.insert(fields.path(key)) }
                return nil
            }
            return text
        }

        mutating func integer(
            _ fields: Fields, _ key: String, in range: ClosedRange<Int64>, expected: String
        ) -> Int64? {
            guard let node = fields.values[key] else { return nil }
            return integer(node, at: fields.path(key), in: range, expected: expected)
        }

        mutating func integer(
            _ node: RecordField, at path: String, in range: ClosedRange<Int64>, expected: String
        ) -> Int64? {
            guard case .integer(let value) = node.value, range.contains(value) else {
                report("expected \(expected), found \(node.summary)", at: path, node: node)
                return nil
            }
            return value
        }

        /// A count or length: an integer from 0 up.
        mutating func count(_ fields: Fields, _ key: String) -> Int? {
            let range = Int64(0)...Int64(Int32.max)
            return integer(fields, key, in: range, expected: "an integer from 0 to \(Int32.max)")
                .map { Int($0) }
        }

        mutating func stringList(_ fields: Fields, _ key: String, what: String) -> [String]? {
            guard let node = fields.values[key] else { return nil }
            return stringList(node, at: fields.path(key), what: what)
        }

        mutating func stringList(_ node: RecordField, at path: String, what: String) -> [String]? {
            guard case .array(let elements) = node.value else {
                report("expected a list of \(what), found \(node.summary)", at: path, node: node)
                return nil
            }
            var result: [String] = []
            var valid = true
            for (index, element) in elements.enumerated() {
                let elementPath = JSONPath.appending(path, index: index)
                locations[elementPath] = SourcePosition(
                    file: file, line: element.line, column: element.column)
                guard case .text(let text) = element.value, !text.isEmpty else {
                    report(
                        "expected \(what) as non-empty strings, found \(element.summary)",
                        at: elementPath, node: element)
                    valid = false
                    continue
                }
                result.append(text)
            }
            return valid ? result : nil
        }
    }
}
