import Foundation
import Testing

@testable import Strata
@testable import StrataFormats

/// The rejects writer: what it writes reads back through
/// ``PropertyListRecordReader`` as the same records plus `strata_error`.
struct PropertyListRecordWriterTests {
    private let files: PropertyListTestFiles

    init() throws {
        files = try PropertyListTestFiles()
    }

    private static let place = SourcePosition(file: "input.plist", line: 3, keyPath: "[0]")

    private static func field(_ key: String, _ value: RecordValue) -> RecordField {
        RecordField(key: key, value: value, position: place)
    }

    /// Writes `records` with `errors` and reads the file back.
    private func roundTrip(
        _ records: [ImportRecord], errors: [String?]
    ) throws -> (records: [ImportRecord], text: String) {
        let path = files.directory.file("rejects-\(UUID()).plist").path
        let writer = try PropertyListRecordWriter(path: path)
        for (record, error) in zip(records, errors) { try writer.write(record, error: error) }
        try writer.close()
        let text = try String(contentsOfFile: path, encoding: .utf8)
        return (try PropertyListTestFiles.readAll(PropertyListRecordReader(path: path)), text)
    }

    @Test func testRejectsRoundTripThroughTheReader() throws {
        let record = ImportRecord(
            fields: [
                Self.field("name", .text("Crêpe <thin> & \"sweet\" 🥞")),
                Self.field("servings", .integer(.min)),
                Self.field("huge", .unsignedInteger(.max)),
                Self.field("rating", .real(4.25)),
                Self.field("tiny", .real(1e-300)),
                Self.field("infinite", .real(-.infinity)),
                Self.field("favourite", .boolean(true)),
                Self.field("archived", .boolean(false)),
                Self.field("added", .date(Date(timeIntervalSince1970: -86_400 * 365))),
                Self.field("photo", .data(Data((0...255).map { UInt8($0) }))),
                Self.field(
                    "ingredients",
                    .array([
                        Self.field("0", .dictionary([Self.field("name", .text("flour"))])),
                        Self.field("1", .array([])),
                    ])),
                Self.field("type", .dictionary([])),
                Self.field("spaces", .text("  kept \n ")),
            ],
            position: Self.place)
        let plain = ImportRecord(fields: [Self.field("name", .text("Pie"))], position: Self.place)
        let (read, text) = try roundTrip(
            [record, plain], errors: ["input.plist:3: servings is out of range", nil])
        try #require(read.count == 2)
        #expect(Array(read[0].plistEntries.dropLast()) == record.plistEntries)
        #expect(read[0].fields.last?.key == PropertyListRecordWriter.errorKey)
        #expect(
            read[0].plistValue("strata_error") == .text("input.plist:3: servings is out of range"))
        #expect(read[1].plistEntries == plain.plistEntries)
        #expect(read.map(\.group) == [nil, nil])
        #expect(text.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!DOCTYPE plist"))
        #expect(text.contains("<real>-infinity</real>"))
        #expect(text.contains("<date>1969-01-01T00:00:00Z</date>"))
    }

    @Test func testMarkupIsEscapedAndForbiddenCharactersReplaced() throws {
        let record = ImportRecord(
            fields: [
                Self.field("a<b>&c", .text("]]> <x/> &amp; \r\n\t end")),
                Self.field("control", .text("bell\u{07} nul\u{00} \u{FFFE}")),
            ],
            position: Self.place)
        let (read, text) = try roundTrip([record], errors: [nil])
        #expect(read.first?.fields.map(\.key) == ["a<b>&c", "control"])
        #expect(read.first?.plistValue("a<b>&c") == .text("]]> <x/> &amp; \r\n\t end"))
        #expect(read.first?.plistValue("control") == .text("bell\u{FFFD} nul\u{FFFD} \u{FFFD}"))
        #expect(text.contains("<key>a&lt;b&gt;&amp;c</key>"))
        #expect(text.contains("&#13;"))
    }

    @Test func testGroupedRecordsWriteADictOfArrays() throws {
        func record(_ name: String, _ group: String) -> ImportRecord {
            ImportRecord(
                fields: [Self.field("name", .text(name))], position: Self.place, group: group)
        }
        let (read, _) = try roundTrip(
            [record("Tart", "recipes"), record("Pie", "recipes"), record("Dessert", "types")],
            errors: [nil, "bad", nil])
        #expect(read.map(\.group) == ["recipes", "recipes", "types"])
        #expect(read.map(\.position.keyPath) == ["recipes[0]", "recipes[1]", "types[0]"])
        #expect(read[1].plistValue("strata_error") == .text("bad"))
    }

    @Test func testNullFieldsAreLeftOutAndNoRecordsIsAnEmptyArray() throws {
        let record = ImportRecord(
            fields: [Self.field("gone", .null), Self.field("kept", .integer(1))],
            position: Self.place)
        let (read, _) = try roundTrip([record], errors: [nil])
        #expect(read.first?.fields.map(\.key) == ["kept"])
        let (none, text) = try roundTrip([], errors: [])
        #expect(none.isEmpty)
        #expect(text.contains("<array/>"))
    }

    @Test func testNestingPastTheLimitIsRefused() throws {
        var value = RecordValue.text("deep")
        for _ in 0..<5 { value = .array([Self.field("0", value)]) }
        var limits = ImportLimits()
        limits.maximumDepth = 4
        let path = files.directory.file("deep.plist").path
        let writer = try PropertyListRecordWriter(path: path, limits: limits)
        let error = try #require(throws: ImportError.self) {
            try writer.write(ImportRecord(fields: [Self.field("a", value)], position: Self.place))
        }
        #expect(error.code == .tooLarge)
        try writer.close()
        #expect(try PropertyListTestFiles.readAll(PropertyListRecordReader(path: path)).isEmpty)
    }

    @Test func testUnwritablePathIsAnError() throws {
        let path = files.directory.file("no/such/folder/rejects.plist").path
        let error = try #require(throws: ImportError.self) {
            try PropertyListRecordWriter(path: path)
        }
        #expect(error.position.file == path)
    }
}
