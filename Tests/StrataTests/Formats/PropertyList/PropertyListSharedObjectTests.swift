import Foundation
import Testing

@testable import Strata
@testable import StrataFormats

/// Issue 27, point 5: a binary plist's object shared by many references
/// counts once for each against the limits, so a few hundred bytes cannot
/// stand for millions of rows.
struct PropertyListSharedObjectTests {
    /// A `bplist00` of `objects` (each encoded with one-byte references),
    /// the first being the top.
    static func bplist(_ objects: [[UInt8]]) -> Data {
        var bytes = Array("bplist00".utf8)
        var offsets: [Int] = []
        for object in objects {
            offsets.append(bytes.count)
            bytes += object
        }
        let table = bytes.count
        for offset in offsets { bytes += [UInt8(offset >> 8), UInt8(offset & 0xFF)] }
        bytes += [0, 0, 0, 0, 0, 0, 2, 1]
        bytes += [0, 0, 0, 0, 0, 0, 0, UInt8(objects.count)]
        bytes += [0, 0, 0, 0, 0, 0, 0, 0]
        bytes += [0, 0, 0, 0, 0, 0, UInt8(table >> 8), UInt8(table & 0xFF)]
        return Data(bytes)
    }

    static func ascii(_ text: String) -> [UInt8] { [0x50 | UInt8(text.utf8.count)] + text.utf8 }
    static func array(_ references: [Int]) -> [UInt8] {
        [0xA0 | UInt8(references.count)] + references.map { UInt8($0) }
    }
    static func dict(_ pairs: [(Int, Int)]) -> [UInt8] {
        [0xD0 | UInt8(pairs.count)] + pairs.map { UInt8($0.0) } + pairs.map { UInt8($0.1) }
    }

    /// Recipes whose ingredients are 14 references to one ingredient dict,
    /// whose recipe is again such a recipe, `levels` deep: 14^levels
    /// ingredients from about 20 bytes per level.
    static func recipes(levels: Int) -> Data {
        // 0 root, 1 "name", 2 "Soup", 3 "ingredients", 4 "recipe",
        // 5 "displayOrder", 6 the integer 0, then per level: recipe dict,
        // ingredient array, ingredient dict.
        var objects: [[UInt8]] = [
            array([7]), ascii("name"), ascii("Soup"), ascii("ingredients"), ascii("recipe"),
            ascii("displayOrder"), [0x10, 0],
        ]
        for level in 0..<levels {
            let recipe = 7 + 3 * level
            let last = level == levels - 1
            objects.append(dict([(1, 2), (3, recipe + 1)]))
            objects.append(array(Array(repeating: recipe + 2, count: 14)))
            objects.append(
                dict(last ? [(1, 2), (5, 6)] : [(1, 2), (5, 6), (4, recipe + 3)]))
        }
        return bplist(objects)
    }

    @Test func testSharedReferencesCountAsCopiesAgainstTheValueLimit() throws {
        let files = try PropertyListTestFiles()
        // An array of 14 references to one array of 14 references to a string.
        let path = try files.write(
            Self.bplist([
                Self.array([1]), Self.dict([(2, 3)]), Self.ascii("tags"),
                Self.array(Array(repeating: 4, count: 14)),
                Self.array(Array(repeating: 5, count: 14)), Self.ascii("x"),
            ]))
        var limits = ImportLimits()
        limits.maximumValuesPerRecord = 200
        let reader = try PropertyListRecordReader(path: path, limits: limits)
        let error = try #require(throws: ImportError.self) { _ = try reader.nextRecord() }
        #expect(error.code == .tooLarge)
        #expect(error.message.hasPrefix("the record holds more than 200 values"))
        limits.maximumValuesPerRecord = 211  // 1 + 14 + 196
        let fits = try PropertyListRecordReader(path: path, limits: limits)
        #expect(try fits.nextRecord() != nil)
    }

    @Test func testATinyFileOfSharedRecordsImportsNothing() throws {
        let data = Self.recipes(levels: 6)
        #expect(data.count < 300)
        let files = try PropertyListTestFiles()
        let path = try files.write(data)
        let fixture = try ImportFixture("Recipes")
        let error = try #require(throws: ImportError.self) {
            try fixture.run(
                try PropertyListRecordReader(path: path), ImportOptions(entity: "Recipe"))
        }
        #expect(error.code == .tooLarge)
        #expect(try fixture.count("SELECT COUNT(*) FROM ZINGREDIENT") == 0)
    }

    @Test func testObjectsMadeFromOneRecordAreLimited() throws {
        let files = try PropertyListTestFiles()
        let path = try files.write(Self.recipes(levels: 2))  // 1 + 14 + 14 + 196 objects
        let fixture = try ImportFixture("Recipes")
        var options = ImportOptions(entity: "Recipe")
        options.limits.maximumObjectsPerRecord = 200
        let error = try #require(throws: ImportError.self) {
            try fixture.run(
                try PropertyListRecordReader(path: path, limits: options.limits), options)
        }
        #expect(error.code == .tooLarge)
        #expect(error.message.hasPrefix("the record makes more than 200 objects"))
        #expect(try fixture.count("SELECT COUNT(*) FROM ZRECIPE") == 0)
        options.limits.maximumObjectsPerRecord = 225
        _ = try fixture.run(
            try PropertyListRecordReader(path: path, limits: options.limits), options)
        #expect(try fixture.count("SELECT COUNT(*) FROM ZINGREDIENT") == 14 + 196)
    }
}
