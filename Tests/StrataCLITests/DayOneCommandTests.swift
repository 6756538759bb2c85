import Foundation
import Strata
import Testing

/// `strata import … --format dayone` and `strata export … --format dayone`,
/// run as the built binary on a Day One export the test writes.
struct DayOneCommandTests {
    private let folder: ScratchFolder

    init() throws {
        folder = try ScratchFolder()
    }

    private static let photo = Data([0xFF, 0xD8, 0xFF, 0xE0] + Array(repeating: 0x11, count: 60))
    private static var photoMD5: String { MD5.hex(MD5.hash(photo)) }
    private static let stray = "photos/" + String(repeating: "0", count: 32) + ".jpeg"

    /// A Day One export: two good entries (one with a photo and a tag) and
    /// `extra` entries, the photo, and a file no entry lists.
    private func export(
        _ entries: String = "", named name: String = "export.zip", journal: String = "Journal.json"
    ) throws -> String {
        let journalName = journal
        let journal = """
            {"metadata": {"version": "1.0"}, "entries": [
              {"uuid": "0123456789ABCDEF0123456789ABCDEF", "creationDate": "2024-05-01T08:30:00Z",
               "text": "# Paris\\n\\n![](dayone-moment://\(String(repeating: "A", count: 32)))",
               "tags": ["travel"], "starred": true,
               "photos": [{"identifier": "\(String(repeating: "A", count: 32))",
                           "md5": "\(Self.photoMD5)", "type": "jpeg", "orderInEntry": 0}]},
              {"uuid": "FEDCBA9876543210FEDCBA9876543210", "creationDate": "2024-05-02T08:30:00Z",
               "text": "Home", "tags": []}\(entries)
            ]}
            """
        let path = folder.path(name)
        try ZipWriter.write(to: URL(fileURLWithPath: path)) { zip in
            try zip.add(path: journalName, bytes: Data(journal.utf8))
            try zip.add(
                path: "photos/\(Self.photoMD5).jpeg", bytes: Self.photo, compression: .stored)
            try zip.add(path: Self.stray, bytes: Data("stray".utf8))
        }
        return path
    }

    private static let invalid =
        ",\n  {\"uuid\": \"not-a-uuid\", \"creationDate\": \"2024-05-03T08:30:00Z\", \"text\": \"x\"}"

    @Test func testImportReportsProblemsByUUIDAndExportWritesDayOne() throws {
        let input = try export(Self.invalid)
        let store = folder.path("Diary.sqlite")
        let first = try StrataRunner.run([
            "import", store, input, "--format", "dayone", "--schemas", "Schemas/Diary",
        ])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(
            first.stdout
                == "Imported 2 of 3 Day One entries, 1 media (64 bytes), 1 tags from \(input) "
                + "into \(store); 2 problem(s) reported, 1 entries skipped\n")
        #expect(first.stderr.contains("warning: \(input): entry not-a-uuid: save refused"))
        #expect(first.stderr.contains("does not match ^[0-9A-F]{32}$"))
        #expect(
            first.stderr.contains(
                "warning: \(input): \(Self.stray): no entry lists this file; it was not imported"))
        // Without --format, a zip with a <Journal>.json is Day One; the same
        // export again updates by uuid.
        let again = try StrataRunner.run(["import", store, input])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stdout.hasPrefix("Imported 2 of 3 Day One entries (2 updated), 1 media"))
        let count = try StrataRunner.run(["query", store, "DiaryEntry", "--fields", "uuid,starred"])
        #expect(
            count.stdout
                == "id             uuid                              starred\n"
                + "DiaryEntry/p1  0123456789ABCDEF0123456789ABCDEF  true\n"
                + "DiaryEntry/p2  FEDCBA9876543210FEDCBA9876543210  false\n")

        let output = folder.path("out.zip")
        let exported = try StrataRunner.run(["export", store, "--format", "dayone", "-o", output])
        #expect(exported.status == 0, "\(exported.stderr)")
        #expect(
            exported.stdout.hasPrefix(
                "Exported 2 entries and 1 media files (64 bytes) to \(output) (Day One JSON, "))
        let zip = try ZipReader(contentsOf: URL(fileURLWithPath: output))
        #expect(zip.entries.map(\.path) == ["Journal.json", "photos/\(Self.photoMD5).jpeg"])
        let refused = try StrataRunner.run(["export", store, "--format", "dayone", "-o", output])
        #expect(refused.status == 1)
    }

    @Test func testOnErrorAbortStopsAtTheFirstProblemAndWritesNothing() throws {
        let input = try export(Self.invalid)
        let store = folder.path("Diary.sqlite")
        let outcome = try StrataRunner.run([
            "import", store, input, "--format", "dayone", "--schemas", "Schemas/Diary",
            "--on-error", "abort",
        ])
        #expect(outcome.status == 1)
        #expect(outcome.stdout == "")
        #expect(outcome.stderr.contains("entry not-a-uuid"))
        #expect(outcome.stderr.contains("Journal.json"))
        #expect(!FileManager.default.fileExists(atPath: store))
    }

    /// Issue 27, point 11: an entry of the wrong shape (its `text` an
    /// object) is reported with its uuid and skipped; the others imported.
    @Test func testAnEntryOfTheWrongShapeIsSkippedWithItsUUID() throws {
        let input = try export(
            ",\n  {\"uuid\": \"00112233445566778899AABBCCDDEEFF\","
                + " \"creationDate\": \"2024-05-03T08:30:00Z\", \"text\": {\"rich\": 1}}")
        let store = folder.path("Diary.sqlite")
        let outcome = try StrataRunner.run([
            "import", store, input, "--format", "dayone", "--schemas", "Schemas/Diary",
        ])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stdout.hasPrefix("Imported 2 of 3 Day One entries"), "\(outcome.stdout)")
        #expect(
            outcome.stderr.contains(
                "entry 00112233445566778899AABBCCDDEEFF: entries[2].text: expected a string"
                    + " for \"text\", found an object"), "\(outcome.stderr)")
    }

    @Test func testADocumentThatIsNoDayOneExportIsRefusedWithItsPath() throws {
        let path = folder.path("export.zip")
        try ZipWriter.write(to: URL(fileURLWithPath: path)) { zip in
            try zip.add(path: "Journal.json", bytes: Data(#"{"metadata": [], "entries": []}"#.utf8))
        }
        let store = folder.path("Diary.sqlite")
        let outcome = try StrataRunner.run([
            "import", store, path, "--format", "dayone", "--schemas", "Schemas/Diary",
        ])
        #expect(outcome.status == 1)
        #expect(outcome.stderr.contains("\(path)/Journal.json:"))
        #expect(
            outcome.stderr.contains("expected an object for \"metadata\", found an array"),
            "\(outcome.stderr)")
        #expect(!FileManager.default.fileExists(atPath: store))
    }

    /// Issue 28, point 8: the export is named after the imported journal,
    /// and an entry without tags has no `tags` key.
    @Test("day one export keeps the journal's name, and no tags key without tags")
    func testExportKeepsTheJournalsNameAndWritesNoEmptyTags() throws {
        let input = try export(
            ",\n  {\"uuid\": \"00112233445566778899AABBCCDDEEFF\","
                + " \"creationDate\": \"2024-05-03T08:30:00Z\", \"text\": \"Untagged\"}",
            journal: "Dev Journal.json")
        let store = folder.path("Diary.sqlite")
        let imported = try StrataRunner.run([
            "import", store, input, "--format", "dayone", "--schemas", "Schemas/Diary",
        ])
        #expect(imported.status == 0, "\(imported.stderr)")
        let output = folder.path("out.zip")
        let exported = try StrataRunner.run(["export", store, "--format", "dayone", "-o", output])
        #expect(exported.status == 0, "\(exported.stderr)")
        let zip = try ZipReader(contentsOf: URL(fileURLWithPath: output))
        #expect(zip.entries.map(\.path) == ["Dev Journal.json", "photos/\(Self.photoMD5).jpeg"])
        let journal = try #require(zip.entry(named: "Dev Journal.json"))
        let document = try #require(
            try JSONSerialization.jsonObject(with: zip.data(of: journal)) as? [String: Any])
        let entries = try #require(document["entries"] as? [[String: Any]])
        #expect(entries.map { $0["tags"] as? [String] } == [["travel"], [], nil])
        #expect(entries[2].keys.contains("tags") == false)
    }
}
