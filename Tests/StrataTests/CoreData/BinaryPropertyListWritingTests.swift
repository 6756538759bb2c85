import Foundation
import Testing

@testable import Strata
@testable import StrataStore

/// The binary property list writer: what it writes reads back the same
/// through this package's reader and through Foundation's, in the fewest
/// bytes the format allows, and the same value always gives the same bytes.
struct BinaryPropertyListWritingTests {
    /// Every kind of object, at the format's boundaries: counts of 14 and
    /// 15 (the marker's nibble), integers at each width and negative,
    /// non-ASCII text, empty containers.
    static let everyKind: RecordValue = .dictionary(entries: [
        "null": .null, "yes": .boolean(true), "no": .boolean(false),
        "integers": .array(values: [
            .integer(0), .integer(255), .integer(256), .integer(65_535), .integer(65_536),
            .integer(4_294_967_295), .integer(4_294_967_296), .integer(-1), .integer(.min),
            .integer(.max),
        ]),
        "real": .real(-2.5), "date": .date(Date(timeIntervalSinceReferenceDate: 802_512_000.25)),
        "data": .data(Data(repeating: 7, count: 15)), "short": .data(Data([1, 2])),
        "ascii": .text("fourteen chars"), "fifteen": .text("fifteen chars!!"),
        "text": .text("café ☕️ 𝄞"), "empty": .text(""),
        "uids": .array(values: [.uid(0), .uid(300), .uid(70_000), .uid(5_000_000_000)]),
        "set": .set(values: [.text("a"), .integer(1)]),
        "nested": .array(values: [
            .array(values: []), .dictionary(entries: [:]),
            .dictionary(entries: ["k": .array(values: [.null])]),
        ]),
    ])

    @Test func testEveryKindReadsBackTheSame() throws {
        let data = BinaryPropertyList.encode(Self.everyKind)
        #expect(data.starts(with: Array("bplist00".utf8)))
        #expect(try BinaryPropertyList.decode(data) == Self.everyKind)
    }

    /// Foundation's reader (Core Data's, on Apple platforms) gives the same
    /// values; it cannot hold UIDs, nulls or sets, so they are left out.
    @Test func testFoundationReadsTheSameValues() throws {
        let top: RecordValue = .dictionary(entries: [
            "NSStoreModelVersionHashes": .dictionary(entries: [
                "Note": .data(Data(repeating: 1, count: 32))
            ]
            ),
            "NSStoreModelVersionHashesVersion": .integer(3),
            "NSStoreModelVersionIdentifiers": .array(values: [.text("1.0"), .text("zwei ü")]),
            "NSPersistenceFrameworkVersion": .integer(1_414),
            "big": .integer(-5_000_000_000), "real": .real(0.5), "flag": .boolean(true),
            "date": .date(Date(timeIntervalSinceReferenceDate: 86_400)),
        ])
        let data = BinaryPropertyList.encode(top)
        var format = PropertyListSerialization.PropertyListFormat.xml
        let read = try #require(
            try PropertyListSerialization.propertyList(from: data, format: &format)
                as? [String: Any])
        #expect(format == .binary)
        #expect(
            read["NSStoreModelVersionHashes"] as? [String: Data]
                == ["Note": Data(repeating: 1, count: 32)])
        #expect(read["NSStoreModelVersionHashesVersion"] as? Int == 3)
        #expect(read["NSStoreModelVersionIdentifiers"] as? [String] == ["1.0", "zwei ü"])
        #expect(read["NSPersistenceFrameworkVersion"] as? Int == 1_414)
        #expect(read["big"] as? Int64 == -5_000_000_000)
        #expect(read["real"] as? Double == 0.5)
        #expect(read["flag"] as? Bool == true)
        #expect(read["date"] as? Date == Date(timeIntervalSinceReferenceDate: 86_400))
    }

    @Test func testEqualValuesGiveEqualBytesAndStringsAreWrittenOnce() throws {
        var first: [String: RecordValue] = [:]
        var second: [String: RecordValue] = [:]
        let names = (0..<50).map { "key\($0)" }
        for name in names { first[name] = .text("same") }
        for name in names.reversed() { second[name] = .text("same") }
        let data = BinaryPropertyList.encode(.dictionary(entries: first))
        #expect(data == BinaryPropertyList.encode(.dictionary(entries: second)))
        // The dictionary, 50 keys and one shared value.
        let reader = try BinaryPropertyList(bytes: [UInt8](data), maximumDepth: 8)
        #expect(reader.objectCount == 52)
    }

    /// More than 255 objects need 2-byte references, a file over 64 KiB
    /// 4-byte offsets.
    @Test func testReferencesAndOffsetsWidenAsNeeded() throws {
        let many: RecordValue = .array(values: (0..<300).map { .integer(Int64($0)) })
        let manyData = BinaryPropertyList.encode(many)
        #expect(
            try BinaryPropertyList(bytes: [UInt8](manyData), maximumDepth: 8).referenceSize == 2)
        #expect(try BinaryPropertyList.decode(manyData) == many)
        let large: RecordValue = .array(values: [.data(Data(count: 70_000)), .text("after")])
        let largeData = BinaryPropertyList.encode(large)
        #expect(try BinaryPropertyList(bytes: [UInt8](largeData), maximumDepth: 8).offsetSize == 4)
        #expect(try BinaryPropertyList.decode(largeData) == large)
    }
}
