import Testing

@testable import Strata
@testable import StrataContext

/// The attribute values of an object: inline ones and the overflow array
/// behave as one array of optionals.
struct AttributeValuesTests {
    @Test func testNewValuesAreNilForEveryCount() {
        for count in 0...9 {
            let values = AttributeValues(count: count)
            #expect(values.count == count)
            #expect(Array(values) == Array(repeating: nil, count: count))
        }
    }

    @Test func testSetValuesReadBackInlineAndInOverflow() {
        var values = AttributeValues(count: 7)
        for index in values.indices { values[index] = .integer(Int64(index * 10)) }
        values[2] = nil
        values[5] = .string("five")
        #expect(
            Array(values) == [
                .integer(0), .integer(10), nil, .integer(30), .integer(40), .string("five"),
                .integer(60),
            ])
    }

    @Test func testCopiesAreIndependentValues() {
        var original = AttributeValues(count: 6)
        original[0] = .string("a")
        original[5] = .string("f")
        var copy = original
        copy[0] = .string("b")
        copy[5] = nil
        #expect(original[0] == .string("a"))
        #expect(original[5] == .string("f"))
        #expect(copy != original)
        copy[0] = .string("a")
        copy[5] = .string("f")
        #expect(copy == original)
    }
}
