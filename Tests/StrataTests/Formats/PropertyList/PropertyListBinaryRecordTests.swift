import Foundation
import Testing

@testable import Strata
@testable import StrataFormats
@testable import StrataStore

/// Binary plists (`bplist00`), written by Foundation's
/// `PropertyListSerialization` or, for what it cannot write, by the test
/// encoder of the CoreData tests.
struct PropertyListBinaryRecordTests {
    private let files: PropertyListTestFiles

    init() throws {
        files = try PropertyListTestFiles()
    }

    /// Recipes with every plist type; dates in whole seconds, since the XML
    /// form has no fractions.
    private static var recipes: [[String: Any]] {
        [
            [
                "name": "Crêpe 🥞",
                "servings": 4,
                "smallest": Int64.min,
                "largest": Int64.max,
                "huge": UInt64.max,
                "rating": 4.5,
                "favourite": true,
                "archived": false,
                "added": Date(timeIntervalSince1970: 1_706_702_400),
                "photo": Data([0x89, 0x50, 0x4E, 0x47, 0x00, 0xFF]),
                "ingredients": [
                    ["name": "flour", "amount": "250 g", "order": 0],
                    ["name": "milk", "amount": "0.5 l", "order": 1],
                ],
                "type": ["name": "Dessert"],
                "tags": [String](),
            ],
            ["name": "", "servings": -1, "notes": "line one\nline two"],
        ]
    }

    /// The records of `object` written in `format`, and the reader.
    private func read(
        _ object: Any, format: PropertyListSerialization.PropertyListFormat
    ) throws -> (records: [ImportRecord], reader: PropertyListRecordReader) {
        let data = try PropertyListSerialization.data(
            fromPropertyList: object, format: format, options: 0)
        let reader = try PropertyListRecordReader(path: files.write(data))
        return (try PropertyListTestFiles.readAll(reader), reader)
    }

    @Test func testBinaryGivesTheSameRecordsAsXML() throws {
        let (xml, xmlReader) = try read(Self.recipes, format: .xml)
        let (binary, binaryReader) = try read(Self.recipes, format: .binary)
        #expect(xmlReader.format == .xml)
        #expect(binaryReader.format == .binary)
        #expect(binary.count == 2)
        // Foundation sorts keys in XML but not in binary: compare sorted.
        let sorted = { (records: [ImportRecord]) in
            records.map { $0.plistEntries.sorted { $0.key < $1.key } }
        }
        #expect(sorted(binary) == sorted(xml))
        #expect(binary.map(\.group) == [nil, nil])
        #expect(binary[0].plistValue("huge") == .unsignedInteger(.max))
        #expect(binary[0].plistValue("smallest") == .integer(.min))
        #expect(binary[0].plistValue("added") == .date(Date(timeIntervalSince1970: 1_706_702_400)))
        #expect(binaryReader.bytesRead == binaryReader.totalBytes)
    }

    @Test func testBinaryPositionsHaveKeyPathsAndNoLines() throws {
        let (records, _) = try read(Self.recipes, format: .binary)
        let record = try #require(records.first)
        #expect(record.position.keyPath == "[0]")
        #expect(record.position.line == 0)
        #expect(record.position.byteOffset > 8)
        guard case .array(values: let ingredients) = record.plistValue("ingredients"),
            case .dictionary(entries: let milk) = ingredients.last?.value
        else {
            Issue.record("ingredients")
            return
        }
        #expect(ingredients.map(\.key) == ["0", "1"])
        #expect(ingredients[1].position?.keyPath == "[0].ingredients[1]")
        let amount = try #require(milk.first { $0.key == "amount" })
        #expect(amount.position?.keyPath == "[0].ingredients[1].amount")
        #expect(amount.position?.line == 0)
        #expect(amount.value == .text("0.5 l"))
    }

    @Test func testBinaryDictOfArraysGroupsItsRecords() throws {
        let object: [String: Any] = [
            "recipes": [["name": "Tart"], ["name": "Pie"]],
            "types": [["name": "Dessert"]],
        ]
        let (records, _) = try read(object, format: .binary)
        let byGroup = Dictionary(grouping: records) { $0.group ?? "" }
        #expect(byGroup["recipes"]?.map { $0.plistValue("name") } == [.text("Tart"), .text("Pie")])
        #expect(byGroup["recipes"]?.map(\.position.keyPath) == ["recipes[0]", "recipes[1]"])
        #expect(byGroup["types"]?.first?.fields.first?.position?.keyPath == "types[0].name")
    }

    @Test func testBinaryRootsThatHoldNoRecordsAreStructureErrors() throws {
        let path = try files.write(
            PropertyListSerialization.data(fromPropertyList: "text", format: .binary, options: 0))
        let reader = try PropertyListRecordReader(path: path)
        let error = try #require(throws: ImportError.self) { try reader.nextRecord() }
        #expect(error.code == .structure)
        #expect(error.message.hasPrefix("the root is <string>"))

        let mixed: [String: Any] = ["version": 2, "recipes": [["name": "Tart"], "loose"]]
        let data = try PropertyListSerialization.data(
            fromPropertyList: mixed, format: .binary, options: 0)
        let mixedReader = try PropertyListRecordReader(path: files.write(data))
        var errors: [ImportError] = []
        var names: [RecordValue?] = []
        for _ in 0..<4 {
            do {
                guard let record = try mixedReader.nextRecord() else { break }
                names.append(record.plistValue("name"))
            } catch let error as ImportError {
                errors.append(error)
            }
        }
        #expect(names == [.text("Tart")])
        #expect(Set(errors.map(\.position.keyPath)) == ["version", "recipes[1]"])
        #expect(errors.allSatisfy { $0.code == .structure })
    }

    @Test func testSetsAndUIDsAreNotPropertyListValues() throws {
        for value in [RecordValue.set(values: [.integer(1)]), .uid(3)] {
            let data = BinaryPropertyList.encode(
                .array(values: [.dictionary(entries: ["a": value])]))
            let reader = try PropertyListRecordReader(path: files.write(data))
            let error = try #require(throws: ImportError.self) { try reader.nextRecord() }
            #expect(error.code == .structure)
            #expect(error.position.keyPath == "[0].a")
        }
    }

    @Test func testDamagedOrOversizedBinaryIsRefused() throws {
        let good = try PropertyListSerialization.data(
            fromPropertyList: Self.recipes, format: .binary, options: 0)
        let truncated = try files.write(good.prefix(good.count - 10))
        let damaged = try #require(throws: ImportError.self) {
            try PropertyListRecordReader(path: truncated)
        }
        #expect(damaged.code == .syntax)
        #expect(damaged.message.hasPrefix("damaged binary property list"))

        let path = try files.write(good)
        let tooLarge = try #require(throws: ImportError.self) {
            try PropertyListRecordReader(
                path: path, limits: .init(), maximumBinaryBytes: Int64(good.count - 1))
        }
        #expect(tooLarge.code == .tooLarge)
        #expect(tooLarge.position.file == path)
    }

    @Test func testBinaryNestingPastTheDepthLimitIsTooLarge() throws {
        var limits = ImportLimits()
        limits.maximumDepth = 3
        let object: [[String: Any]] = [["a": [["deep": true]]], ["b": false]]
        let data = try PropertyListSerialization.data(
            fromPropertyList: object, format: .binary, options: 0)
        let reader = try PropertyListRecordReader(path: files.write(data), limits: limits)
        let error = try #require(throws: ImportError.self) { try reader.nextRecord() }
        #expect(error.code == .tooLarge)
        #expect(error.position.keyPath == "[0].a[0]")
        #expect(try reader.nextRecord()?.plistValue("b") == .boolean(false))
    }
}
