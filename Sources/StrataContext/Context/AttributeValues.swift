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
    private var overflow: [AttributeValue?] = []
    /// The number of values.
    let count: Int

    /// `count` values, all nil.
    init(count: Int) {
        precondition(count >= 0, "negative attribute count")
        self.count = count
        if count > Self.inlineCount {
            overflow.reserveCapacity(count - Self.inlineCount)
            for _ in Self.inlineCount..<count { overflow.append(nil) }
        }
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

    /// Writes one overflow value. Out of line on purpose: inlined, the
    /// optimizer hoists the array's uniqueness check out of a loop writing
    /// values, so every object read from a row (even one with no overflow)
    /// copied the shared empty array into an allocation of its own.
    @inline(never)
    private mutating func setOverflow(_ position: Int, _ value: AttributeValue?) {
        overflow[position] = value
    }
}
