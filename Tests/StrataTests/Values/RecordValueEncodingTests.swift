import Foundation
import Testing

@testable import StrataValues

/// `RecordValue(encoding:)` with the pretty ``JSONWriter`` style is what
/// `--json` writes instead of Foundation's `JSONEncoder`: the same text for
/// the same value, so scripts reading the output see no change.
struct RecordValueEncodingTests {
    struct Inner: Encodable {
        var ratio: Double
        var whole: Double
        var counts: [Int]
        var empty: [String: Int]
        var none: [Int]
        var text: String
        var small: Float
    }

    struct Outer: Encodable {
        var inner: Inner
        var missing: Int?
        var when: Date
        var bytes: Data
        var huge: UInt64
        var flag: Bool
        var big: Double
        var place: URL
        var list: [Inner]
    }

    static let sample = Outer(
        inner: Inner(
            ratio: -0.5, whole: 3, counts: [1, 2], empty: [:], none: [],
            text: "a/b\u{8}\u{c}\u{1}\u{1f}\"\\\n\t é ✓", small: 0.1),
        missing: nil, when: Date(timeIntervalSinceReferenceDate: 5.25), bytes: Data([1, 2, 3]),
        huge: .max, flag: true, big: 1e21, place: URL(fileURLWithPath: "/tmp/a b"),
        list: [])

    @Test func testPrettyTextIsJSONEncodersForTheSameValue() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let expected = String(decoding: try encoder.encode(Self.sample), as: UTF8.self)
        var writer = JSONWriter(style: .pretty)
        writer.value(try RecordValue(encoding: Self.sample), sortingKeys: true)
        #expect(String(decoding: writer.bytes, as: UTF8.self) == expected)
    }

    @Test func testOptionalsLeftOutAreAbsentAndExplicitNilsAreNull() throws {
        struct Both: Encodable {
            var left: Int?
            var kept: Int?
            enum CodingKeys: String, CodingKey { case left, kept }
            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encodeIfPresent(left, forKey: .left)
                try container.encode(kept, forKey: .kept)
            }
        }
        #expect(try RecordValue(encoding: Both()) == ["kept": .null])
        #expect(try RecordValue(encoding: [1, 2]) == [1, 2])
        #expect(try RecordValue(encoding: UInt64.max) == .unsignedInteger(.max))
    }
}
