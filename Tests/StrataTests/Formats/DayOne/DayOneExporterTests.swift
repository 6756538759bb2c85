import Foundation
import Testing

@testable import Strata
@testable import StrataContext
@testable import StrataFormats
@testable import StrataStore

/// A diary written back in Day One's format: an imported export comes out
/// equivalent (same entries, same media bytes), the same store gives the
/// same bytes, and an entry written in Strata gets what Day One needs.
@Suite struct DayOneExporterTests {
    private func export(_ fixture: DayOneFixture, to name: String) throws -> URL {
        let url = fixture.folder.file(name)
        let store = try Store.open(at: fixture.storeURL, mode: .readOnly)
        defer { try? store.close() }
        try DayOneExporter(store: store, model: fixture.model).export(to: url)
        return url
    }

    /// A JSON value as text with sorted keys, to compare two of them.
    private static func canonical(_ value: Any) throws -> String {
        String(
            decoding: try JSONSerialization.data(withJSONObject: value, options: [.sortedKeys]),
            as: UTF8.self)
    }

    @Test func testReExportIsEquivalentToTheImportedExport() throws {
        let fixture = try DayOneFixture()
        let original = try fixture.export()
        try fixture.importExport(original)
        let written = try export(fixture, to: "out.zip")
        let before = try DayOneFixture.contents(of: original)
        let after = try DayOneFixture.contents(of: written)
        let entriesBefore = try #require(before.journal["entries"] as? [Any])
        let entriesAfter = try #require(after.journal["entries"] as? [Any])
        #expect(entriesAfter.count == 3)
        for (old, new) in zip(entriesBefore, entriesAfter) {
            #expect(try Self.canonical(new) == Self.canonical(old))
        }
        #expect(after.files == before.files)
        #expect(try Self.canonical(after.journal["metadata"] ?? [:]) == "{\"version\":\"1.0\"}")
    }

    @Test func testTheSameStoreGivesTheSameBytes() throws {
        let fixture = try DayOneFixture()
        try fixture.importExport(try fixture.export())
        let first = try Data(contentsOf: try export(fixture, to: "one.zip"))
        let second = try Data(contentsOf: try export(fixture, to: "two.zip"))
        #expect(first == second)
    }

    @Test func testAnEntryWrittenInStrataGetsUUIDsIdentifiersAndMD5Names() throws {
        let fixture = try DayOneFixture()
        do {
            let store = try Store.open(at: fixture.storeURL)
            defer { try? store.close() }
            let context = try Context(store: store, model: fixture.model)
            let entry = try context.insert("DiaryEntry")
            try entry.set("title", "Lisbon")
            try entry.set("subtitle", "day one")
            try entry.set("body", "Trams and tiles.")
            try entry.set("creationTime", Date(timeIntervalSinceReferenceDate: 757_382_400.75))
            let medium = try context.insert("Medium")
            try medium.set("type", "image")
            try medium.setValue(.data(DayOneFixture.photo1), forKey: "data")
            try medium.setObject(entry, forKey: "diaryEntry")
            let tag = try context.insert("Tag")
            try tag.set("name", "travel")
            try entry.add(tag, to: "tags")
            try context.save()
        }
        let url = try export(fixture, to: "strata.zip")
        let contents = try DayOneFixture.contents(of: url)
        let entries = try #require(contents.journal["entries"] as? [[String: Any]])
        let entry = try #require(entries.first)
        let uuid = try #require(entry["uuid"] as? String)
        #expect(uuid.count == 32 && uuid.allSatisfy { $0.isHexDigit && !$0.isLowercase })
        #expect(entry["creationDate"] as? String == "2025-01-01T00:00:00Z")
        #expect(entry["tags"] as? [String] == ["travel"])
        let photos = try #require(entry["photos"] as? [[String: Any]])
        let photo = try #require(photos.first)
        let identifier = try #require(photo["identifier"] as? String)
        #expect(identifier.count == 32 && identifier != uuid)
        #expect(photo["md5"] as? String == DayOneFixture.md5(DayOneFixture.photo1))
        #expect(photo["type"] as? String == "jpeg")
        #expect(
            contents.files == [
                "photos/\(DayOneFixture.md5(DayOneFixture.photo1)).jpeg": DayOneFixture.photo1
            ])
        #expect(
            entry["text"] as? String
                == "# Lisbon\nday one\n\nTrams and tiles.\n\n![](dayone-moment://\(identifier))")
        // Day One's own reader, Strata's importer, takes it back as it is.
        let other = try DayOneFixture()
        let summary = try other.importExport(url)
        #expect(summary.imported == 1 && summary.problems == [])
    }
}
