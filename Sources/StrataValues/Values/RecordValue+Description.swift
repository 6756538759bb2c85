extension RecordValue {
    /// The value's kind in the words of a JSON document, for messages about
    /// a value of the wrong kind: `null`, `true`, `a number`, `a string`,
    /// `a date`, `data`, `an array`, `an object`.
    ///
    /// ```swift
    /// let found = RecordValue.array(values: [1, 2]).kindDescription  // "an array"
    /// ```
    ///
    /// The mapping language names kinds by its own types (`integer`,
    /// `binary`, `dictionary`) and keyed archives by their classes; those
    /// describe other vocabularies, not this one.
    public var kindDescription: String {
        switch self {
        case .null: "null"
        case .boolean(let flag): flag ? "true" : "false"
        case .integer, .unsignedInteger, .uid, .real: "a number"
        case .text: "a string"
        case .date: "a date"
        case .data: "data"
        case .array, .set: "an array"
        case .dictionary: "an object"
        }
    }
}
