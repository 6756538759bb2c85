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

    /// Creates a field.
    public init(key: String, value: RecordValue, position: SourcePosition? = nil) {
        self.key = key
        self.value = value
        self.position = position
    }

    /// Where the value starts, or `fallback` (its record's or container's
    /// position) when the field has none.
    public func position(or fallback: SourcePosition) -> SourcePosition {
        position ?? fallback
    }
}
