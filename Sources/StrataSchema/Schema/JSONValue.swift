/// A JSON value read by ``JSONReader``, with the exact kind of number it was
/// written as.
///
/// Objects keep their members in document order, duplicates included, so a
/// caller can report a repeated key instead of silently keeping one of them.
public enum JSONValue: Hashable, Sendable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number written without fraction or exponent that fits in 64 bits.
    case integer(Int64)
    /// Any other number.
    case real(Double)
    /// A string, with its escapes resolved.
    case string(String)
    /// An array of located values.
    case array([JSONNode])
    /// An object's members, in document order, duplicates included.
    case object([JSONMember])
}

/// A JSON value together with where it starts in its text.
///
/// Lines and columns start at 1; columns count Unicode scalars, so they match
/// what an editor shows for any UTF-8 text.
public struct JSONNode: Hashable, Sendable {
    /// The value.
    public var value: JSONValue
    /// The line of the value's first character.
    public var line: Int
    /// The column of the value's first character.
    public var column: Int

    /// Creates a located value.
    public init(_ value: JSONValue, line: Int, column: Int) {
        self.value = value
        self.line = line
        self.column = column
    }

    /// The value of the first member named `key`, when this is an object.
    public subscript(key: String) -> JSONNode? {
        guard case .object(let members) = value else { return nil }
        return members.first { $0.key == key }?.value
    }

    /// A short description of the value for error messages, such as
    /// `string "yes"`, `number 2.5` or `an object`.
    public var summary: String {
        switch value {
        case .null: return "null"
        case .bool(let flag): return flag ? "true" : "false"
        case .integer(let number): return "number \(number)"
        case .real(let number): return "number \(number)"
        case .string(let text):
            let shown = text.count > 40 ? String(text.prefix(40)) + "…" : text
            return "string \"\(shown)\""
        case .array: return "an array"
        case .object: return "an object"
        }
    }
}

/// A member of a JSON object: a key, where the key starts, and its value.
public struct JSONMember: Hashable, Sendable {
    /// The key, with its escapes resolved.
    public var key: String
    /// The line of the key's opening quote.
    public var line: Int
    /// The column of the key's opening quote.
    public var column: Int
    /// The member's value.
    public var value: JSONNode

    /// Creates a member.
    public init(key: String, line: Int, column: Int, value: JSONNode) {
        self.key = key
        self.line = line
        self.column = column
        self.value = value
    }
}
