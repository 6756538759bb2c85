import Foundation
import Testing

@testable import Strata
@testable import StrataStore

struct KeyedArchiveTests {
    /// A keyed archive whose root is object 1, from `$objects`.
    static func archive(_ objects: [RecordValue]) -> Data {
        BinaryPropertyList.encode(
            .dictionary(entries: [
                "$archiver": .text("NSKeyedArchiver"), "$version": .integer(100_000),
                "$top": .dictionary(entries: ["root": .uid(1)]),
                "$objects": .array(values: [.text("$null")] + objects),
            ]))
    }

    static func classEntry(_ name: String, _ supers: [String] = ["NSObject"]) -> RecordValue {
        .dictionary(entries: [
            "$classname": .text(name),
            "$classes": .array(values: ([name] + supers).map(RecordValue.text)),
        ])
    }

    @Test func testReadsWhatFoundationArchives() throws {
        let root: NSDictionary = [
            "name": "Ada", "count": 3, "flag": true, "ratio": 0.5,
            "list": ["a", "b"], "bytes": Data([1, 2]),
        ]
        let data = try NSKeyedArchiver.archivedData(
            withRootObject: root, requiringSecureCoding: false)
        let object = try #require(try KeyedArchive(data: data).topObject())
        #expect(object.isKind(of: "NSDictionary"))
        var entries: [String: ArchivedValue] = [:]
        for (key, value) in try object.entries() {
            entries[try key.stringValue()] = value
        }
        #expect(try entries["name"]?.stringValue() == "Ada")
        #expect(try entries["count"]?.integerValue() == 3)
        #expect(try entries["flag"]?.boolValue() == true)
        #expect(try entries["ratio"]?.realValue() == 0.5)
        #expect(try entries["bytes"]?.dataValue() == Data([1, 2]))
        let list = try #require(entries["list"]).object().elements()
        #expect(try list.map { try $0.stringValue() } == ["a", "b"])
    }

    @Test func testResolvesObjectsStringsAndKnownKeysDictionaries() throws {
        let data = Self.archive([
            // 1: root
            .dictionary(entries: [
                "$class": .uid(2), "Name": .uid(3), "Inline": .text("x"), "Nothing": .uid(0),
                "Table": .uid(5), "Count": .integer(4),
            ]),
            Self.classEntry("Thing"),
            // 3: an NSMutableString object
            .dictionary(entries: ["$class": .uid(4), "NS.string": .text("boxed")]),
            Self.classEntry("NSMutableString", ["NSString", "NSObject"]),
            // 5: NSKnownKeysDictionary1 { k: "v" }
            .dictionary(entries: [
                "$class": .uid(6), "values": .uid(7), "searchMapping": .uid(8),
                "emptyToken": .uid(10), "version": .integer(1),
            ]),
            Self.classEntry("NSKnownKeysDictionary1", ["NSDictionary", "NSObject"]),
            .dictionary(entries: ["$class": .uid(11), "NS.objects": .array(values: [.uid(12)])]),
            .dictionary(entries: ["$class": .uid(9), "keys": .uid(13), "length": .integer(1)]),
            Self.classEntry("NSKnownKeysMappingStrategy1"),
            .text("__empty_slot_token__"),
            Self.classEntry("NSArray"),
            .text("v"),
            .dictionary(entries: ["$class": .uid(11), "NS.objects": .array(values: [.uid(14)])]),
            .text("k"),
        ])
        let root = try #require(try KeyedArchive(data: data).topObject())
        #expect(root.className == "Thing" && root.classNames == ["Thing", "NSObject"])
        #expect(try root.string("Name") == "boxed")
        #expect(try root.string("Inline") == "x")
        #expect(try root.string("Nothing") == nil)
        #expect(try root.string("Missing") == nil)
        #expect(try root.integer("Count") == 4)
        let table = try #require(try root.dictionary("Table"))
        #expect(
            try table.map { [try $0.key.stringValue(), try $0.value.stringValue()] } == [
                ["k", "v"]
            ])
        #expect(throws: KeyedArchiveError.self) { try root.integer("Name") }
        #expect(throws: KeyedArchiveError.self) { try root.object("Inline") }
    }

    @Test func testSelfReferencesDoNotLoop() throws {
        // NS.string of object 1 points back at object 1.
        let data = Self.archive([
            .dictionary(entries: ["$class": .uid(2), "NS.string": .uid(1), "Me": .uid(1)]),
            Self.classEntry("NSString"),
        ])
        let root = try #require(try KeyedArchive(data: data).topObject())
        #expect(throws: KeyedArchiveError.self) { try root.string("Me") }
        #expect(try root.object("Me")?.index == 1)
    }

    @Test func testMalformedArchivesThrow() throws {
        let badUID = Self.archive([
            .dictionary(entries: ["$class": .uid(2), "Next": .uid(99)]),
            Self.classEntry("Thing"),
        ])
        let root = try #require(try KeyedArchive(data: badUID).topObject())
        let error = try #require(throws: KeyedArchiveError.self) { try root.object("Next") }
        #expect(error.description.contains("UID 99"))

        let noClass = Self.archive([.dictionary(entries: ["Name": .text("x")])])
        #expect(throws: KeyedArchiveError.self) { try KeyedArchive(data: noClass).topObject() }

        let classNotDictionary = Self.archive([.dictionary(entries: ["$class": .uid(0)])])
        #expect(throws: KeyedArchiveError.self) {
            try KeyedArchive(data: classNotDictionary).topObject()
        }

        let notAnArchive = BinaryPropertyList.encode(
            .dictionary(entries: ["$objects": .array(values: [])]))
        #expect(throws: KeyedArchiveError.self) { try KeyedArchive(data: notAnArchive) }

        let noNull = BinaryPropertyList.encode(
            .dictionary(entries: [
                "$archiver": .text("NSKeyedArchiver"), "$top": .dictionary(entries: [:]),
                "$objects": .array(values: [.text("first")]),
            ]))
        #expect(throws: KeyedArchiveError.self) { try KeyedArchive(data: noNull) }

        let mismatched = Self.archive([
            .dictionary(entries: [
                "$class": .uid(2), "NS.keys": .array(values: [.uid(0)]),
                "NS.objects": .array(values: []),
            ]
            ),
            Self.classEntry("NSDictionary"),
        ])
        let dictionary = try #require(try KeyedArchive(data: mismatched).topObject())
        #expect(throws: KeyedArchiveError.self) { try dictionary.entries() }
    }
}
