/// One problem found in a schema file: where it is and what is wrong.
///
/// `path` is a JSON path into the file, such as
/// `$.entities.DiaryEntry.attributes.text.maxLength`; names that are not
/// identifiers are written `["like this"]` and array elements `[0]`.
public struct SchemaIssue: Hashable, Sendable, CustomStringConvertible {
    /// The file, as the caller named it (relative paths stay relative).
    public var file: String
    /// The JSON path of the offending value, key or object.
    public var path: String
    /// The line of the offending text, when known.
    public var line: Int?
    /// The column of the offending text, when known.
    public var column: Int?
    /// What was found and what was expected.
    public var message: String

    /// Creates an issue.
    public init(file: String, path: String, line: Int? = nil, column: Int? = nil, message: String) {
        self.file = file
        self.path = path
        self.line = line
        self.column = column
        self.message = message
    }

    /// `<file>:<line>:<column>: <path>: <message>`, without `<line>:<column>:`
    /// when the position is unknown.
    public var description: String {
        if let line, let column {
            return "\(file):\(line):\(column): \(path): \(message)"
        }
        return "\(file): \(path): \(message)"
    }

    /// The JSON path of the value reached by following `keys` from the
    /// document's root, such as `$.fetchRequests.byURL.predicate`.
    public static func path(keys: [String]) -> String {
        keys.reduce(JSONPath.root) { JSONPath.appending($0, key: $1) }
    }

    /// `issues` ordered by line and column, unlocated ones last, otherwise
    /// keeping their order.
    static func inDocumentOrder(_ issues: [SchemaIssue]) -> [SchemaIssue] {
        issues.enumerated().sorted { left, right in
            let a = (left.element.line ?? .max, left.element.column ?? .max, left.offset)
            let b = (right.element.line ?? .max, right.element.column ?? .max, right.offset)
            return a < b
        }.map(\.element)
    }
}

/// Builds and compares the JSON paths of ``SchemaIssue``.
package enum JSONPath {
    package static let root = "$"

    /// `path.key`, or `path["key"]` when `key` is not an identifier.
    package static func appending(_ path: String, key: String) -> String {
        if isIdentifier(key) { return path + "." + key }
        var escaped = ""
        for character in key {
            switch character {
            case "\"": escaped += "\\\""
            case "\\": escaped += "\\\\"
            default: escaped.append(character)
            }
        }
        return path + "[\"" + escaped + "\"]"
    }

    /// `path[index]`.
    package static func appending(_ path: String, index: Int) -> String {
        path + "[\(index)]"
    }

    /// Whether `path` is `ancestor` or lies inside it.
    static func path(_ path: String, isWithin ancestor: String) -> Bool {
        guard path.hasPrefix(ancestor) else { return false }
        let rest = path.dropFirst(ancestor.count)
        return rest.isEmpty || rest.hasPrefix(".") || rest.hasPrefix("[")
    }

    private static func isIdentifier(_ key: String) -> Bool {
        guard let first = key.utf8.first, first == UInt8(ascii: "_") || isLetter(first) else {
            return false
        }
        return key.utf8.allSatisfy { $0 == UInt8(ascii: "_") || isLetter($0) || isDigit($0) }
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }
}

extension JSONPath {
    /// The paths enclosing `path`, nearest first, ending with `$`.
    package static func ancestors(of path: String) -> [String] {
        var ends: [String.Index] = []
        var index = path.startIndex
        var inQuotes = false
        while index < path.endIndex {
            let character = path[index]
            if inQuotes {
                if character == "\\" {
                    index = path.index(after: index)
                } else if character == "\"" {
                    inQuotes = false
                }
            } else if character == "\"" {
                inQuotes = true
            } else if character == "." || character == "[" {
                ends.append(index)
            }
            if index < path.endIndex { index = path.index(after: index) }
        }
        return ends.reversed().map { String(path[..<$0]) }
    }
}
