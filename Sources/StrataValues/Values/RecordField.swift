/// One value of a ``RecordValue`` container together with its key and,
/// when it was read from a file, where.
public struct RecordField: Hashable, Sendable {
    /// The key in a dictionary, or the element's index (as text) in an array.
    public var key: String
    /// The value.
    public var value: RecordValue
    /// Where the value starts in its input; nil for a value Strata made
    /// (an export's, an archive's, a metadata key's).
    public var position: SourcePosition?
    /// Where the key starts, for a member of a format that writes keys
    /// before values (a JSON object's `"key":`); nil otherwise.
    public var keyPosition: SourcePosition?

    /// Creates a field.
    public init(
        key: String, value: RecordValue, position: SourcePosition? = nil,
        keyPosition: SourcePosition? = nil
    ) {
        self.key = key
        self.value = value
        self.position = position
        self.keyPosition = keyPosition
    }

    /// The line where the value starts; 0 when unknown.
    public var line: Int { position?.line ?? 0 }
    /// The column where the value starts; 0 when unknown.
    public var column: Int { position?.column ?? 0 }
    /// The line where the member starts: its key's, else its value's.
    public var keyLine: Int { (keyPosition ?? position)?.line ?? 0 }
    /// The column where the member starts: its key's, else its value's.
    public var keyColumn: Int { (keyPosition ?? position)?.column ?? 0 }

    /// The first member named `key`, when the value is a dictionary.
    public subscript(key: String) -> RecordField? {
        guard case .dictionary(let members) = value else { return nil }
        return members.first { $0.key == key }
    }

    /// A short description of the value for error messages, such as
    /// `string "yes"`, `number 2.5` or `an object`.
    public var summary: String {
        switch value {
        case .integer(let number): return "number \(number)"
        case .unsignedInteger(let number), .uid(let number): return "number \(number)"
        case .real(let number): return "number \(number)"
        case .text(let text):
            let shown = text.count > 40 ? String(text.prefix(40)) + "…" : text
            return "string \"\(shown)\""
        default: return value.kindDescription
        }
    }

    /// Where the value starts, or `fallback` (its record's or container's
    /// position) when the field has none.
    public func position(or fallback: SourcePosition) -> SourcePosition {
        position ?? fallback
    }
}
