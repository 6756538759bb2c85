extension AttributeValue {
    /// How a value fits an attribute of some type
    /// (``AttributeValue/fitting(_:)``).
    @usableFromInline
    package enum Fit: Sendable {
        /// It fits, as this value (an integer given for a real attribute
        /// becomes a real).
        case fits(AttributeValue)
        /// An integer beyond the attribute's width; the range it must be in.
        case outOfRange(String)
        /// A value of another kind.
        case wrongType
    }

    /// The value as an attribute of `type` stores it: the one rule every
    /// writer of values keeps (the context's setters, a migration step's
    /// batch updates). Inlinable: the context's setters call it for every
    /// value they are given.
    @inlinable
    package func fitting(_ type: AttributeType) -> Fit {
        switch (type, self) {
        case (.integer16, .integer(let number)):
            Int16(exactly: number) != nil ? .fits(self) : .outOfRange("\(Int16.min)...\(Int16.max)")
        case (.integer32, .integer(let number)):
            Int32(exactly: number) != nil ? .fits(self) : .outOfRange("\(Int32.min)...\(Int32.max)")
        case (.integer64, .integer): .fits(self)
        case (.double, .real), (.float, .real), (.decimal, .real): .fits(self)
        case (.double, .integer(let number)), (.float, .integer(let number)),
            (.decimal, .integer(let number)):
            .fits(.real(Double(number)))
        case (.string, .string), (.uri, .string): .fits(self)
        case (.boolean, .boolean): .fits(self)
        case (.date, .date): .fits(self)
        case (.binary, .data), (.transformable, .data): .fits(self)
        case (.uuid, .uuid): .fits(self)
        default: .wrongType
        }
    }

    /// The value as a number, for numeric kinds (booleans and dates included).
    package var numericValue: Double? {
        switch self {
        case .integer(let number): Double(number)
        case .real(let number): number
        case .boolean(let flag): flag ? 1 : 0
        case .date(let seconds): seconds
        default: nil
        }
    }

    /// The value's kind, for messages: `an integer`, `a string`, `bytes`…
    package var typeName: String {
        switch self {
        case .integer: "an integer"
        case .real: "a number"
        case .string: "a string"
        case .boolean: "a boolean"
        case .date: "a date"
        case .data: "bytes"
        case .uuid: "a UUID"
        }
    }
}
