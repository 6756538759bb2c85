import Foundation
import Testing

@testable import Strata
@testable import StrataStore

struct BinaryPropertyListTests {
    /// Assembles a `bplist00` file from encoded objects (marker + body, with
    /// references of `referenceSize` bytes), so tests can write what
    /// Foundation's writer will not: UIDs, cycles, bad offsets.
    static func assemble(
        _ objects: [[UInt8]], top: UInt64 = 0, offsetSize: UInt8 = 1, referenceSize: UInt8 = 1,
        objectCount: UInt64? = nil, tableOffset: UInt64? = nil
    ) -> Data {
        var bytes = Array("bplist00".utf8)
        var offsets: [Int] = []
        for object in objects {
            offsets.append(bytes.count)
            bytes += object
        }
        let table = bytes.count
        for offset in offsets {
            bytes += (0..<Int(offsetSize)).reversed().map {
                UInt8(truncatingIfNeeded: offset >> (8 * $0))
            }
        }
        func bigEndian(_ value: UInt64) -> [UInt8] {
            (0..<8).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
        }
        bytes += [0, 0, 0, 0, 0, 0, offsetSize, referenceSize]
        bytes += bigEndian(objectCount ?? UInt64(objects.count))
        bytes += bigEndian(top)
        bytes += bigEndian(tableOffset ?? UInt64(table))
        return Data(bytes)
    }

    // MARK: - Valid files

    @Test func testDecodesWhatFoundationWrites() throws {
        let date = Date(timeIntervalSinceReferenceDate: 123_456.5)
        let longText = String(repeating: "abc", count: 20)
        let plist: [String: Any] = [
            "small": 7, "negative": -5, "big": 1 << 40, "u16": 40_000,
            "pi": 3.25, "yes": true, "no": false, "when": date,
            "bytes": Data([1, 2, 3]), "ascii": "hello", "long": longText,
            "unicode": "héllo 🌍", "list": [1, "two", [3.5]],
            "nested": ["inner": ["k": "v"]], "empty": [String: Any](),
        ]
        let data = try PropertyListSerialization.data(
            fromPropertyList: plist, format: .binary, options: 0)
        let decoded = try BinaryPropertyList.decode(data)
        let expected: RecordValue = .dictionary(entries: [
            "small": .integer(7), "negative": .integer(-5), "big": .integer(1 << 40),
            "u16": .integer(40_000), "pi": .real(3.25), "yes": .boolean(true),
            "no": .boolean(false), "when": .date(date), "bytes": .data(Data([1, 2, 3])),
            "ascii": .text("hello"), "long": .text(longText),
            "unicode": .text("héllo 🌍"),
            "list": .array(values: [.integer(1), .text("two"), .array(values: [.real(3.5)])]),
            "nested": .dictionary(entries: ["inner": .dictionary(entries: ["k": .text("v")])]),
            "empty": .dictionary(entries: [:]),
        ])
        #expect(decoded == expected)
        #expect(decoded["ascii"]?.textValue == "hello")
        #expect(decoded["list"]?.elements?.count == 3)
    }

    @Test func testDecodesUIDsOfEachWidth() throws {
        let data = Self.assemble([
            [0xA4, 1, 2, 3, 4],
            [0x80, 0x05],
            [0x81, 0x01, 0x00],
            [0x83, 0x00, 0x01, 0x00, 0x00],
            [0x87, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF],
        ])
        #expect(
            try BinaryPropertyList.decode(data)
                == .array(values: [.uid(5), .uid(256), .uid(65_536), .uid(.max)]))
    }

    @Test func testDecodesScalarsSetsAndLongLengths() throws {
        let eighteen = [UInt8](repeating: 0x41, count: 18)
        let data = Self.assemble(
            [
                [0xA6, 1, 2, 3, 4, 5, 6],
                [0x00],
                [0x13, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFE],
                [0x14] + Array(repeating: 0xFF, count: 8) + [0x80] + Array(repeating: 0, count: 7),
                [0x22, 0x40, 0x20, 0x00, 0x00],
                [0xC2, 1, 1],
                [0x4F, 0x10, 18] + eighteen,
            ])
        #expect(
            try BinaryPropertyList.decode(data)
                == .array(values: [
                    .null, .integer(-2), .integer(.min), .real(2.5),
                    .set(values: [.null, .null]), .data(Data(eighteen)),
                ]))
    }

    @Test func testSharedObjectsAreNotCycles() throws {
        // Object 1 is referenced twice from the array and once more inside.
        let data = Self.assemble([[0xA3, 1, 1, 2], [0x51, 0x78], [0xA1, 1]])
        #expect(
            try BinaryPropertyList.decode(data)
                == .array(values: [.text("x"), .text("x"), .array(values: [.text("x")])]))
    }

    // MARK: - Hostile files

    @Test func testTruncatedFilesThrow() throws {
        let data = try PropertyListSerialization.data(
            fromPropertyList: ["key": "value", "n": 5], format: .binary, options: 0)
        for length in [0, 7, 8, 20, data.count - 1, data.count - 33] {
            #expect(throws: PropertyListError.self) {
                try BinaryPropertyList.decode(data.prefix(length))
            }
        }
    }

    @Test func testGarbageThrows() throws {
        #expect(throws: PropertyListError.self) {
            try BinaryPropertyList.decode(Data(repeating: 0x42, count: 100))
        }
        #expect(throws: PropertyListError.self) {
            try BinaryPropertyList.decode(Data("bplist00".utf8) + Data(repeating: 0xFF, count: 64))
        }
        // Flip every byte of a valid file in turn: each result either decodes
        // or throws, never traps.
        let data = try PropertyListSerialization.data(
            fromPropertyList: ["a": [1, 2, "three"], "b": Data([9])], format: .binary, options: 0)
        for position in data.indices {
            for value: UInt8 in [0x00, 0x0F, 0x7F, 0xFF] {
                var corrupt = data
                corrupt[position] = value
                _ = try? BinaryPropertyList.decode(corrupt)
            }
        }
    }

    @Test func testBadTrailerFieldsThrow() throws {
        let objects: [[UInt8]] = [[0x51, 0x78]]
        let cases: [(Data, String)] = [
            (Self.assemble(objects, offsetSize: 0), "offset size"),
            (Self.assemble(objects, referenceSize: 9), "reference size"),
            (Self.assemble(objects, objectCount: 0), "object count"),
            (Self.assemble(objects, objectCount: .max), "object count"),
            (Self.assemble(objects, top: 1), "top object"),
            (Self.assemble(objects, tableOffset: .max), "offset table"),
            (Self.assemble(objects, tableOffset: 3), "offset table"),
        ]
        for (data, words) in cases {
            let error = try #require(throws: PropertyListError.self) {
                try BinaryPropertyList.decode(data)
            }
            #expect(error.message.contains(words), "\(error)")
        }
    }

    @Test func testOutOfRangeReferencesAndLengthsThrow() throws {
        let cases: [[[UInt8]]] = [
            [[0xA1, 7]],  // reference past the object count
            [[0x55, 0x41]],  // string longer than the file
            [[0x4F, 0x13, 0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]],  // huge length
            [[0x4F, 0x13, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]],  // negative length
            [[0xDF, 0x10, 0x7F]],  // dictionary whose refs run past the end
            [[0xD1, 1, 1], [0x10, 0x01]],  // non-string key
            [[0xD2, 1, 1, 2, 2], [0x51, 0x61], [0x09]],  // duplicate key
            [[0x8F] + [UInt8](repeating: 1, count: 16)],  // 16-byte UID
            [[0x14] + [UInt8](repeating: 0x01, count: 16)],  // integer beyond 64 bits
            [[0x21, 0, 0]],  // 2-byte real
            [[0x70]],  // undefined marker
        ]
        for objects in cases {
            #expect(throws: PropertyListError.self, "\(objects)") {
                try BinaryPropertyList.decode(Self.assemble(objects))
            }
        }
        // An offset table entry pointing at the trailer.
        var data = Self.assemble([[0x51, 0x78]])
        data[data.count - 33] = UInt8(data.count - 10)
        #expect(throws: PropertyListError.self) { try BinaryPropertyList.decode(data) }
    }

    @Test func testCyclesThrow() throws {
        let selfLoop = Self.assemble([[0xA1, 0]])
        let error = try #require(throws: PropertyListError.self) {
            try BinaryPropertyList.decode(selfLoop)
        }
        #expect(error.message.contains("cycle"))
        let longLoop = Self.assemble([[0xA1, 1], [0xD1, 2, 0], [0x51, 0x6B]])
        #expect(throws: PropertyListError.self) { try BinaryPropertyList.decode(longLoop) }
    }

    @Test func testNestingDeeperThanTheLimitThrows() throws {
        // 300 arrays, each holding the next, with 2-byte references.
        let count = 300
        var objects: [[UInt8]] = []
        for index in 1..<count {
            let next = UInt16(index)
            objects.append([0xA1, UInt8(next >> 8), UInt8(next & 0xFF)])
        }
        objects.append([0xA0])
        let data = Self.assemble(objects, offsetSize: 2, referenceSize: 2)
        let error = try #require(throws: PropertyListError.self) {
            try BinaryPropertyList.decode(data)
        }
        #expect(error.message.contains("nested"))
        #expect(try BinaryPropertyList.decode(data, maximumDepth: 400).elements?.count == 1)
    }
}
