import Foundation
import Testing

@testable import Strata
@testable import StrataFormats
@testable import StrataStore

/// Issue 27, point 8: a UTF-16 string of a binary plist is read exactly or
/// refused; a lone surrogate is never turned into U+FFFD.
struct BinaryPropertyListStringTests {
    /// `[{"name": "A<unit>B"}]` as a binary plist, the middle UTF-16 unit
    /// written as given.
    static func recipes(middle unit: UInt16) -> Data {
        let string: [UInt8] = [0x63, 0x00, 0x41, UInt8(unit >> 8), UInt8(unit & 0xFF), 0x00, 0x42]
        return BinaryPropertyListTests.assemble([
            [0xA1, 1],  // [dict]
            [0xD1, 2, 3],  // {key: value}
            [0x54] + Array("name".utf8),
            string,
        ])
    }

    @Test(arguments: [UInt16(0xD800), 0xDBFF, 0xDC00, 0xDFFF])
    func testALoneSurrogateIsRefusedAtItsByte(unit: UInt16) throws {
        let error = try #require(throws: PropertyListError.self) {
            try BinaryPropertyList.decode(Self.recipes(middle: unit))
        }
        #expect(error.message.contains("lone UTF-16 surrogate"))
        #expect(error.byteOffset == 8 + 2 + 3 + 5 + 1 + 2)
    }

    @Test func testAPairedSurrogateAndOtherUnitsAreKept() throws {
        let pair: [UInt8] = [0x62, 0xD8, 0x3D, 0xDE, 0x00]  // 😀
        let data = BinaryPropertyListTests.assemble([pair])
        #expect(try BinaryPropertyList.decode(data) == .text("😀"))
        #expect(
            try BinaryPropertyList.decode(Self.recipes(middle: 0xFFFD))
                == .array(values: [.dictionary(entries: ["name": .text("A\u{FFFD}B")])]))
    }

    @Test func testTheRecordReaderNamesTheKeyPath() throws {
        let folder = try TemporaryDirectory()
        let path = folder.file("lone.plist").path
        try Self.recipes(middle: 0xD800).write(to: URL(fileURLWithPath: path))
        let reader = try PropertyListRecordReader(path: path)
        let error = try #require(throws: ImportError.self) { try reader.nextRecord() }
        #expect(error.position.keyPath == "[0].name")
        #expect(error.message.contains("lone UTF-16 surrogate (0xD800)"))
    }
}
