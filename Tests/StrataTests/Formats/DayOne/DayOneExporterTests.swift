import Foundation
import Testing

@testable import Strata
@testable import StrataContext
@testable import StrataFormats
@testable import StrataStore

/// A diary written back in Day One's format: an imported export comes out
/// equivalent (same entries, same media bytes), the same store gives the
/// same bytes, and an entry written in Strata gets what Day One needs.
struct DayOneExporterTests {
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

    // MARK: - Issue 28, point 8

    @Test("day one export keeps the journal's name")
    func testExportKeepsTheJournalsName() throws {
        let fixture = try DayOneFixture()
        let fresh = try export(fixture, to: "fresh.zip")
        #expect(try ZipReader(contentsOf: fresh).entries.map(\.path) == ["Journal.json"])
        let input = try fixture.write(
            [("Dev Journal.json", try DayOneFixture.journal(DayOneFixture.entries()))]
                + DayOneFixture.mediaFiles())
        try fixture.importExport(input)
        let written = try export(fixture, to: "out.zip")
        let paths = try ZipReader(contentsOf: written).entries.map(\.path)
        #expect(paths.first == "Dev Journal.json")
        #expect(!paths.contains("Journal.json"))
        // The name is the store's: it opens again with it.
        let store = try Store.open(at: fixture.storeURL, mode: .readOnly)
        defer { try? store.close() }
        #expect(try DayOneExporter(store: store, model: fixture.model).journalName == "Dev Journal")
    }

    @Test("no tags key for an entry without tags")
    func testNoTagsKeyForAnEntryWithoutTags() throws {
        let fixture = try DayOneFixture()
        var entries = DayOneFixture.entries()
        entries[1]["tags"] = nil  // As Day One writes an entry without tags.
        try fixture.importExport(try fixture.export(entries: entries))
        let written = try DayOneFixture.contents(of: try export(fixture, to: "out.zip"))
        let after = try #require(written.journal["entries"] as? [[String: Any]])
        #expect(after.count == 3)
        #expect(after[0]["tags"] as? [String] == ["paris", "travel"])
        #expect(after[1].keys.contains("tags") == false)
        // An explicit empty list is written back as it was.
        #expect(after[2]["tags"] as? [String] == [])
    }

    @Test("a long title is not cut inside an escape")
    func testALongTitleIsNotCutInsideAnEscape() throws {
        let fixture = try DayOneFixture()
        let line = String(repeating: "a", count: 119) + "\\. Bought apples\\!"
        var entries = DayOneFixture.entries()
        entries[2]["text"] = "# \(line)\n\nAt the market."
        entries[2]["pdfAttachments"] = nil
        let input = try fixture.write(
            [("Journal.json", try DayOneFixture.journal(entries))]
                + DayOneFixture.mediaFiles().filter { !$0.0.hasPrefix("pdfs/") })
        let summary = try fixture.importExport(input)
        #expect(summary.problems == [])
        do {
            let store = try Store.open(at: fixture.storeURL, mode: .readOnly)
            defer { try? store.close() }
            let context = try Context(store: store, model: fixture.model)
            let entry = try #require(
                try context.findFirst("DiaryEntry", where: ["uuid": .string(DayOneFixture.uuid3)]))
            let title = try #require(try entry.string("title"))
            #expect(title == String(repeating: "a", count: 119) + ".")
            #expect(!title.hasSuffix("\\"))
        }
        // The round trip keeps the text exactly.
        let written = try DayOneFixture.contents(of: try export(fixture, to: "out.zip"))
        let after = try #require(written.journal["entries"] as? [[String: Any]])
        #expect(after[2]["text"] as? String == "# \(line)\n\nAt the market.")
    }

    @Test func testATitleWithMarkupWrittenInStrataComesBackTheSame() throws {
        let fixture = try DayOneFixture()
        let title = #"#1 C:\temp *draft* [v2] a_b"#
        do {
            let store = try Store.open(at: fixture.storeURL)
            defer { try? store.close() }
            let context = try Context(store: store, model: fixture.model)
            let entry = try context.insert("DiaryEntry")
            try entry.set("title", title)
            try entry.set("body", "Notes.")
            try context.save()
        }
        let url = try export(fixture, to: "strata.zip")
        let entries = try #require(
            try DayOneFixture.contents(of: url).journal["entries"] as? [[String: Any]])
        #expect(
            entries.first?["text"] as? String
                == ##"# \#1 C:\\temp \*draft\* \[v2\] a\_b"## + "\n\nNotes.")
        let other = try DayOneFixture()
        try other.importExport(url)
        let store = try Store.open(at: other.storeURL, mode: .readOnly)
        defer { try? store.close() }
        let context = try Context(store: store, model: other.model)
        let entry = try #require(try context.fetch(FetchRequest(entity: "DiaryEntry")).first)
        #expect(try entry.string("title") == title)
    }

    @Test func testUnescapingUndoesOnlyMarkdownEscapes() {
        #expect(DayOneText.unescaped(#"Market day\. Apples\!"#) == "Market day. Apples!")
        #expect(DayOneText.unescaped(#"C:\temp\\x \"#) == #"C:\temp\x \"#)
        #expect(DayOneText.unescaped(DayOneText.escaped(#"a\*b_[c]"#)) == #"a\*b_[c]"#)
    }
}
