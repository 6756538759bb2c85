import Foundation
import Testing

@testable import Strata
@testable import StrataFormats
@testable import StrataStore

/// Issue 27, point 7: a bundle whose manifest verifies is still untrusted
/// data. Every value is checked against every rule of the schema the store
/// is at (``AttributeCheck``), by either reading of a line, and a bundle's
/// own `schema.json` never loosens those rules.
struct BundleRulesTests {
    /// The fixture's honest lines of `file`.
    private func lines(_ entries: [(String, Data)], _ file: String) throws -> [String] {
        let data = try #require(entries.first { $0.0 == file }?.1)
        return String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    /// `entries` with the first line of `file` replaced by `line`.
    private func replacingFirstLine(
        _ entries: [(String, Data)], _ file: String, with line: String
    ) throws -> [(String, Data)] {
        var lines = try lines(entries, file)
        lines[0] = line
        return entries.map {
            $0.0 == file ? ($0.0, Data((lines.joined(separator: "\n") + "\n").utf8)) : $0
        }
    }

    /// `line` (a flat JSON object) with member `name` set to the JSON `value`.
    private func setting(_ name: String, to value: String, in line: String) throws -> String {
        var object = try #require(
            try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        object[name] = try JSONSerialization.jsonObject(
            with: Data(value.utf8), options: .fragmentsAllowed)
        // Written plainly, as Strata writes lines: the decoder's fast path.
        let members = try object.keys.sorted().map { key -> String in
            let encoded = try JSONSerialization.data(
                withJSONObject: object[key] ?? NSNull(), options: [.fragmentsAllowed])
            return "\"\(key)\":"
                + String(decoding: encoded, as: UTF8.self).replacingOccurrences(
                    of: "\\/", with: "/")
        }
        return "{" + members.joined(separator: ",") + "}"
    }

    /// Unarchives `entries` into a fresh folder; the error thrown.
    private func refusal(
        _ entries: [(String, Data)], options: UnarchiveOptions = UnarchiveOptions()
    ) throws -> (Error?, [String]) {
        let folder = try TemporaryDirectory()
        let bundle = folder.file("bundle.zip")
        try BundleFixture.zip(entries, keepManifest: false).write(to: bundle)
        do {
            try BundleUnarchiver(bundle: bundle, options: options)
                .unarchive(to: folder.file("Diary.sqlite"))
        } catch {
            return (error, try BundleFixture.listing(folder.url))
        }
        return (nil, try BundleFixture.listing(folder.url))
    }

    @Test func testValuesBreakingTheSchemasRulesAreRefusedWithTheirLine() throws {
        let entries = try BundleFixture.honestEntries(try BundleFixture())
        let cases: [(String, String, String, String)] = [
            ("data/Medium.jsonl", "type", #""evil""#, "type does not match"),
            ("data/DiaryEntry.jsonl", "wordCount", "-5", "wordCount -5 is below the minimum 0"),
            (
                "data/DiaryEntry.jsonl", "title", "\"" + String(repeating: "é", count: 500) + "\"",
                "title has 500 characters, at most 120 allowed"
            ),
            ("data/DiaryEntry.jsonl", "uuid", #""not-a-uuid""#, "uuid does not match"),
            ("data/DiaryEntry.jsonl", "latitude", "1000", "latitude 1000.0 is above the maximum"),
            ("data/DiaryEntry.jsonl", "creationTime", "1e300", "no date of the years 0000–9999"),
            ("data/DiaryEntry.jsonl", "title", "null", "title is required"),
            ("data/Tag.jsonl", "name", #""""#, "name has 0 characters, at least 1 required"),
        ]
        for (file, name, value, message) in cases {
            let honest = try lines(entries, file)[0]
            let plain = try setting(name, to: value, in: honest)
            // The same value escaped (`\/` in the id): the general reader.
            let general = plain.replacingOccurrences(of: "/p", with: "\\/p")
            for line in [plain, general] {
                let (error, listing) = try refusal(
                    try replacingFirstLine(entries, file, with: line))
                let thrown = try #require(error, "\(line)")
                #expect((thrown as? BundleError)?.code == .invalidData, "\(thrown)")
                #expect("\(thrown)".contains("\"\(file)\""), "\(thrown)")
                #expect("\(thrown)".contains("line 1: "), "\(thrown)")
                #expect("\(thrown)".contains(message), "\(thrown)")
                #expect(listing == ["bundle.zip"], "nothing written for \(name)")
            }
        }
    }

    /// A `schema.json` whose rules (not hashed) were loosened, and a line
    /// that only the loosened rule allows.
    private func loosened() throws -> (BundleFixture, [(String, Data)]) {
        let fixture = try BundleFixture()
        var entries = try BundleFixture.honestEntries(fixture)
        let index = try #require(entries.firstIndex { $0.0 == "schema.json" })
        let schema = String(decoding: entries[index].1, as: UTF8.self)
        #expect(schema.contains("\"maxLength\" : 120") || schema.contains("\"maxLength\": 120"))
        entries[index].1 = Data(
            schema.replacingOccurrences(of: "\"maxLength\" : 120", with: "\"maxLength\" : 1000")
                .replacingOccurrences(of: "\"maxLength\": 120", with: "\"maxLength\": 1000")
                .utf8)
        let line = try setting(
            "title", to: "\"" + String(repeating: "x", count: 500) + "\"",
            in: try lines(entries, "data/DiaryEntry.jsonl")[0])
        entries = try replacingFirstLine(entries, "data/DiaryEntry.jsonl", with: line)
        return (fixture, entries)
    }

    @Test func testABundlesLoosenedSchemaDoesNotLoosenTheSchemasRules() throws {
        let (_, entries) = try loosened()
        var options = UnarchiveOptions()
        options.schemas = BundleFixture.schemas
        let (error, listing) = try refusal(entries, options: options)
        let thrown = try #require(error)
        #expect("\(thrown)".contains("title has 500 characters, at most 120 allowed"), "\(thrown)")
        #expect(listing == ["bundle.zip"])
    }

    @Test func testTheStoreKeepsTheSchemasVersionNotTheBundles() throws {
        let fixture = try BundleFixture()
        var entries = try BundleFixture.honestEntries(fixture)
        let index = try #require(entries.firstIndex { $0.0 == "schema.json" })
        entries[index].1 = Data(
            String(decoding: entries[index].1, as: UTF8.self)
                .replacingOccurrences(of: "\"maxLength\" : 120", with: "\"maxLength\" : 1000")
                .replacingOccurrences(of: "\"maxLength\": 120", with: "\"maxLength\": 1000")
                .utf8)
        let folder = try TemporaryDirectory()
        let bundle = folder.file("bundle.zip")
        try BundleFixture.zip(entries, keepManifest: false).write(to: bundle)
        var options = UnarchiveOptions()
        options.schemas = BundleFixture.schemas
        try BundleUnarchiver(bundle: bundle, options: options)
            .unarchive(to: folder.file("Diary.sqlite"))
        let store = try Store.open(at: folder.file("Diary.sqlite"))
        defer { try? store.close() }
        let stored = try #require(try store.storedModel())
        #expect(stored == fixture.model)
        #expect(stored.entity(named: "DiaryEntry")?.attribute(named: "title")?.maxLength == 120)
    }

    @Test func testMergingChecksTheTargetStoresRules() throws {
        let (fixture, entries) = try loosened()
        let bundle = fixture.folder.file("loosened.zip")
        try BundleFixture.zip(entries, keepManifest: false).write(to: bundle)
        try fixture.store.close()
        let before = try Data(contentsOf: fixture.folder.file("Diary.sqlite"))
        var options = UnarchiveOptions()
        options.merges = true
        #expect(throws: BundleError.self) {
            try BundleUnarchiver(bundle: bundle, options: options)
                .unarchive(to: fixture.folder.file("Diary.sqlite"))
        }
        do {
            try BundleUnarchiver(bundle: bundle, options: options)
                .unarchive(to: fixture.folder.file("Diary.sqlite"))
        } catch {
            #expect("\(error)".contains("title has 500 characters, at most 120"), "\(error)")
        }
        #expect(try Data(contentsOf: fixture.folder.file("Diary.sqlite")) == before)
    }
}
