import StrataSchema

/// The attribute values of one object, by attribute index; nil is "no
/// value".
///
/// The first ``inlineCount`` values are stored in the struct itself, the
/// rest in one array. A fetch makes an object per row and drops most of them
/// soon after: for entities with few attributes this saves the array's
/// allocation and its release (whose element-by-element destruction goes
/// through the generic value witnesses of `AttributeValue?`), the largest
/// cost of an object after its strings. Copies are values, as an array's
/// are.
struct AttributeValues: RandomAccessCollection, MutableCollection, Equatable {
    /// How many values are stored inline.
    static let inlineCount = 4

    private var value0: AttributeValue?
    private var value1: AttributeValue?
    private var value2: AttributeValue?
    private var value3: AttributeValue?
    /// The values from index ``inlineCount`` on.
    private var overflow: [AttributeValue?]
    /// The number of values.
    let count: Int

    /// `count` values, all nil.
    @inline(__always)  // Once per object made.
    init(count: Int) {
        precondition(count >= 0, "negative attribute count")
        self.count = count
        // Set once (no default to replace): a new object's values are then
        // made in place, not built aside and copied.
        overflow = count > Self.inlineCount ? Self.nils(count - Self.inlineCount) : []
    }

    /// `count` nil values.
    private static func nils(_ count: Int) -> [AttributeValue?] {
        var values: [AttributeValue?] = []
        values.reserveCapacity(count)
        for _ in 0..<count { values.append(nil) }
        return values
    }

    var startIndex: Int { 0 }
    var endIndex: Int { count }

    subscript(index: Int) -> AttributeValue? {
        get {
            precondition(index >= 0 && index < count, "attribute index out of range")
            switch index {
            case 0: return value0
            case 1: return value1
            case 2: return value2
            case 3: return value3
            default: return overflow[index - Self.inlineCount]
            }
        }
        @inline(__always)  // Once per value set.
        set {
            precondition(index >= 0 && index < count, "attribute index out of range")
            switch index {
            case 0: value0 = newValue
            case 1: value1 = newValue
            case 2: value2 = newValue
            case 3: value3 = newValue
            default: setOverflow(index - Self.inlineCount, newValue)
            }
        }
    }

    /// The UTF-8 length of value `index` when it is a string, else nil:
    /// read in place, so the string is not retained and released (a save
    /// checks every string's length).
    @inline(__always)
    func textByteCount(at index: Int) -> Int? {
        withValue(at: index) { value in
            if case .string(let text)? = value { return text.utf8.count }
            return nil
        }
    }

    /// Calls `body` with value `index`, borrowed from where it is stored.
    @inline(__always)
    func withValue<Result>(at index: Int, _ body: (AttributeValue?) throws -> Result) rethrows
        -> Result
    {
        precondition(index >= 0 && index < count, "attribute index out of range")
        switch index {
        case 0: return try body(value0)
        case 1: return try body(value1)
        case 2: return try body(value2)
        case 3: return try body(value3)
        default: return try body(overflow[index - Self.inlineCount])
        }
    }

    /// As ``withValue(at:_:)``, for values reached through an object:
    /// `mutating` (though it changes nothing) so that the values are used
    /// where they are, whereas a read through the object's property copies
    /// all of them first whenever `body` calls code the compiler cannot see
    /// (it cannot tell that such code leaves the object be).
    @inline(__always)
    mutating func withValueInPlace<Result>(
        at index: Int, _ body: (AttributeValue?) throws -> Result
    ) rethrows -> Result {
        // `self` is borrowed in place here, so the plain read copies nothing.
        try withValue(at: index, body)
    }

    /// Writes one overflow value. Out of line on purpose: inlined, the
    /// optimizer hoists the array's uniqueness check out of a loop writing
    /// values, so every object read from a row (even one with no overflow)
    /// copied the shared empty array into an allocation of its own.
    @inline(never)
    private mutating func setOverflow(_ position: Int, _ value: AttributeValue?) {
        overflow[position] = value
    }
}
