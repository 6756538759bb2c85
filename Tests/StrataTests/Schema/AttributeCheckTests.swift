import Testing

@testable import Strata
@testable import StrataSchema

/// ``AttributeCheck/Bounds`` is the plain-number first look a bulk reader
/// (unarchive) takes at each value: it may pass a value on to the full
/// check, but must never accept a value the full check refuses.
struct AttributeCheckTests {
    /// Attributes with every kind of rule, alone and together.
    private static let attributes: [Attribute] = {
        func attribute(_ type: AttributeType, _ change: (inout Attribute) -> Void) -> Attribute {
            var attribute = Attribute(name: "a", type: type)
            change(&attribute)
            return attribute
        }
        return [
            attribute(.string) { $0.maxLength = 3 },
            attribute(.string) { $0.minLength = 1 },
            attribute(.string) {
                $0.minLength = 2; $0.maxLength = 4; $0.isOptional = true
            },
            attribute(.string) { $0.pattern = "[a-z]+" },
            attribute(.string) { $0.isOptional = false },
            attribute(.integer64) {
                $0.minValue = 0; $0.maxValue = 10
            },
            attribute(.double) { $0.minValue = -1.5 },
            attribute(.date) { $0.isOptional = true },
            attribute(.date) { $0.maxValue = 0 },
            attribute(.boolean) { $0.isOptional = false },
        ]
    }()

    private static let texts = [
        "", "a", "ab", "abc", "abcd", "abcde", "é", "éé", "ééé", "A1", "日本語",
    ]
    private static let numbers: [Double] = [
        -.infinity, -1e300, -63_145_526_401, -63_145_526_400, -2, -1.5, -1, 0, 0.5, 1, 10, 10.5,
        252_423_993_599, 252_423_993_600, 1e300, .infinity, .nan,
    ]

    @Test func boundsNeverAcceptWhatTheFullCheckRefuses() throws {
        var accepted = 0
        for attribute in Self.attributes {
            let check = try #require(try AttributeCheck(attribute))
            for text in Self.texts where check.bounds.accepts(textOfBytes: text.utf8.count) {
                accepted += 1
                #expect(check.check(text: text) == nil, "\(attribute) accepted \(text)")
            }
            for number in Self.numbers where check.bounds.accepts(number: number) {
                accepted += 1
                #expect(check.check(number: number) == nil, "\(attribute) accepted \(number)")
            }
            if check.bounds.isOptional { #expect(check.checkMissing() == nil) }
        }
        // The bounds settle most values themselves: the point of having them.
        #expect(accepted > 100)
    }

    @Test func boundsPassOnWhatTheyCannotSettle() throws {
        var pattern = Attribute(name: "kind", type: .string)
        pattern.pattern = "[a-z]+"
        #expect(try AttributeCheck(pattern)?.bounds.accepts(textOfBytes: 3) == false)
        var longer = Attribute(name: "code", type: .string)
        longer.minLength = 2
        // Two bytes may be one character ("é"): counted by the full check.
        #expect(try AttributeCheck(longer)?.bounds.accepts(textOfBytes: 2) == false)
        let date = try #require(try AttributeCheck(Attribute(name: "at", type: .date)))
        #expect(!date.bounds.accepts(number: .nan))
        #expect(!date.bounds.accepts(number: AttributeCheck.dates.upperBound))
        #expect(date.bounds.accepts(number: AttributeCheck.dates.lowerBound))
    }
}
