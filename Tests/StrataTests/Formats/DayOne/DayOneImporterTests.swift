import Foundation
import Testing

@testable import Strata
@testable import StrataContext
@testable import StrataCore
@testable import StrataFormats
@testable import StrataSchema
@testable import StrataStore

/// A Day One export built from the documented format imports with all its
/// entries, tags, places, weather, media and unknown keys; problems are
/// reported by entry uuid; a wrong shape is refused at its path.
struct DayOneImporterTests {
    @Test func testExportImportsWithAllEntriesTagsPlacesAndMedia() throws {
        let fixture = try DayOneFixture()
        let summary = try fixture.importExport(try fixture.export())
        #expect(summary.entries == 3 && summary.imported == 3 && summary.problems == [])
        #expect(summary.media == 5 && summary.tags == 2)
        let store = try Store.open(at: fixture.storeURL, mode: .readOnly)
        defer { try? store.close() }
        let context = try Context(store: store, model: fixture.model)
        let first = try #require(
            try context.findFirst("DiaryEntry", where: ["uuid": .string(DayOneFixture.uuid1)]))
        #expect(try first.string("title") == "Paris")
        #expect(try first.string("body")?.hasPrefix("# Paris\n\nWalked by the river.") == true)
        #expect(try first.bool("starred") == true && first.bool("pinned") == false)
        #expect(try first.string("timeZone") == "Europe/Paris")
        #expect(try first.string("placeName") == "Pont Neuf" && first.string("locality") == "Paris")
        #expect(try first.string("administrativeArea") == "Île-de-France")
        #expect(try first.double("latitude") == 48.8566 && first.double("longitude") == 2.3522)
        #expect(try first.string("weatherConditions") == "Sunny")
        #expect(try first.double("temperatureCelsius") == 21.5)
        #expect(try first.string("richText") == "{\"meta\":{\"version\":1}}")
        #expect(
            try first.date("creationTime")
                == ISO8601DateFormatter().date(from: "2024-05-01T08:30:00Z"))
        #expect(
            try first.date("modifiedDate")
                == ISO8601DateFormatter().date(from: "2024-05-02T09:00:00Z"))
        let extra = try #require(try first.string("dayOneExtra"))
        #expect(
            extra.contains("\"creationDevice\" : \"iPhone\"") && extra.contains("\"moonPhase\""))
        #expect(
            try first.objects(forKey: "tags").compactMap { try $0.string("name") }.sorted() == [
                "paris", "travel",
            ])
        let media = try first.objects(forKey: "media").sorted {
            (try $0.integer("orderInEntry") ?? 0) < (try $1.integer("orderInEntry") ?? 0)
        }
        #expect(try media.map { try $0.string("type") } == ["image", "sound"])
        #expect(try media[0].data("data") == DayOneFixture.photo1)
        #expect(try media[1].data("data") == DayOneFixture.audio)
        #expect(try media[1].string("format") == "aac" && media[1].double("duration") == 12.5)
        let second = try #require(
            try context.findFirst("DiaryEntry", where: ["uuid": .string(DayOneFixture.uuid2)]))
        #expect(try second.bool("pinned") == true && second.string("locality") == "Lyon")
        let video = try #require(
            try second.objects(forKey: "media").first { try $0.string("type") == "video" })
        #expect(try video.data("data") == DayOneFixture.video && video.integer("width") == 1920)
        let third = try #require(
            try context.findFirst("DiaryEntry", where: ["uuid": .string(DayOneFixture.uuid3)]))
        #expect(
            try third.bool("allDay") == true
                && third.string("dayOneExtra")?.contains("userActivity") == true)
        #expect(try context.count("Medium") == 5 && context.count("Tag") == 2)
        let pdf = try #require(try context.findFirst("Medium", where: ["type": .string("pdf")]))
        #expect(try pdf.data("data") == DayOneFixture.pdf && pdf.string("format") == "pdf")
        #expect(try pdf.string("dayOneExtra")?.contains("ticket.pdf") == true)
    }

    @Test func testReimportingTheSameExportUpdatesByUUIDWithoutDuplicates() throws {
        let fixture = try DayOneFixture()
        let url = try fixture.export()
        try fixture.importExport(url)
        let again = try fixture.importExport(url)
        #expect(again.imported == 3 && again.updated == 3)
        let store = try Store.open(at: fixture.storeURL, mode: .readOnly)
        defer { try? store.close() }
        let context = try Context(store: store, model: fixture.model)
        #expect(try context.count("DiaryEntry") == 3)
        #expect(try context.count("Medium") == 5)
        #expect(try context.count("Tag") == 2)
        let travel = try #require(try context.findFirst("Tag", where: ["name": .string("travel")]))
        #expect(try travel.objects(forKey: "entries").count == 2)
    }

    @Test func testMissingAndUnreferencedMediaAndInvalidEntriesAreReportedByUUID() throws {
        let fixture = try DayOneFixture()
        var entries = DayOneFixture.entries()
        entries.append(["uuid": "not-a-uuid", "creationDate": "2024-06-01T00:00:00Z", "text": "x"])
        entries.append(["uuid": "ABCDEFABCDEFABCDEFABCDEFABCDEF01", "creationDate": "yesterday"])
        entries.append([
            "uuid": "ABCDEFABCDEFABCDEFABCDEFABCDEF02", "creationDate": "2024-06-02T00:00:00Z",
            "text": String(repeating: "a", count: 20_001),
        ])
        let files = DayOneFixture.mediaFiles().filter { !$0.0.hasPrefix("videos/") }
        let url = try fixture.write(
            [("Journal.json", try DayOneFixture.journal(entries))] + files
                + [("photos/\(String(repeating: "0", count: 32)).jpeg", Data("stray".utf8))])
        let summary = try fixture.importExport(url)
        #expect(summary.entries == 6 && summary.imported == 3 && summary.skipped == 3)
        let byKind = Dictionary(grouping: summary.problems, by: \.kind)
        #expect(byKind[.missingMedium]?.map(\.uuid) == [DayOneFixture.uuid2])
        #expect(
            byKind[.missingMedium]?.first?.file
                == "videos/\(DayOneFixture.md5(DayOneFixture.video)).mov")
        #expect(
            byKind[.unreferencedMedium]?.map(\.file) == [
                "photos/\(String(repeating: "0", count: 32)).jpeg"
            ])
        #expect(
            byKind[.invalidEntry]?.map(\.uuid)
                == [
                    "not-a-uuid", "ABCDEFABCDEFABCDEFABCDEFABCDEF01",
                    "ABCDEFABCDEFABCDEFABCDEFABCDEF02",
                ])
        #expect(byKind[.invalidEntry]?[1].message.contains("not an ISO 8601") == true)
        let store = try Store.open(at: fixture.storeURL, mode: .readOnly)
        defer { try? store.close() }
        let context = try Context(store: store, model: fixture.model)
        #expect(try context.count("DiaryEntry") == 3)
        // The video's details are kept without its bytes.
        let video = try #require(try context.findFirst("Medium", where: ["type": .string("video")]))
        #expect(
            try video.data("data") == nil && video.string("identifier") == DayOneFixture.videoID)
    }

    @Test func testAbortPolicyStopsAtTheFirstProblemWithNothingWritten() throws {
        let fixture = try DayOneFixture()
        let before = try fixture.snapshot()
        var entries = DayOneFixture.entries()
        entries.append(["uuid": "not-a-uuid", "creationDate": "2024-06-01T00:00:00Z"])
        let url = try fixture.write(
            [("Journal.json", try DayOneFixture.journal(entries))] + DayOneFixture.mediaFiles())
        var options = DayOneImportOptions()
        options.errorPolicy = .abort
        #expect {
            try fixture.importExport(url, options: options)
        } throws: { error in
            "\(error)".contains("entry not-a-uuid") && "\(error)".contains("entries[3]")
        }
        #expect(try fixture.snapshot() == before)
    }

    /// Issue 27, point 11: one entry of the wrong shape is that entry's
    /// problem, reported with its uuid and skipped; the others are imported.
    @Test func testAnEntryOfTheWrongShapeIsSkippedAndTheOthersImported() throws {
        var badTags = DayOneFixture.entries()
        badTags[1]["tags"] = "travel"
        var badText = DayOneFixture.entries()
        badText[2]["text"] = ["rich": "text"]
        var badPhoto = DayOneFixture.entries()
        badPhoto[0]["photos"] = [["identifier": 5]]
        let cases: [([[String: Any]], Int, String)] = [
            (
                badTags, 1,
                "entries[1].tags: expected an array of strings for \"tags\", found a string"
            ),
            (badText, 2, "entries[2].text: expected a string for \"text\", found an object"),
            (badPhoto, 0, "entries[0].photos[0].identifier: expected a string"),
        ]
        for (entries, index, message) in cases {
            let fixture = try DayOneFixture()
            let files = DayOneFixture.mediaFiles()
            let url = try fixture.write(
                [("Journal.json", try DayOneFixture.journal(entries))] + files)
            let summary = try fixture.importExport(url)
            #expect(summary.entries == 3 && summary.imported == 2 && summary.skipped == 1)
            let invalid = summary.problems.filter { $0.kind == .invalidEntry }
            #expect(invalid.map(\.uuid) == [entries[index]["uuid"] as? String])
            #expect(invalid.first?.message.hasPrefix(message) == true, "\(invalid)")
            let store = try Store.open(at: fixture.storeURL, mode: .readOnly)
            defer { try? store.close() }
            #expect(try Context(store: store, model: fixture.model).count("DiaryEntry") == 2)
        }
        // An element that is no object at all has no uuid: its place names it.
        let fixture = try DayOneFixture()
        let entries = try JSONSerialization.data(withJSONObject: DayOneFixture.entries())
        let journal =
            Data("{\"metadata\": {}, \"entries\": [1, ".utf8) + entries.dropFirst() + Data("}".utf8)
        let summary = try fixture.importExport(
            try fixture.write([("Journal.json", journal)] + DayOneFixture.mediaFiles()))
        #expect(summary.entries == 4 && summary.imported == 3 && summary.skipped == 1)
        #expect(summary.problems.first?.place?.contains("entries[0]") == true)
    }

    /// Issue 27, point 11: a photo whose file is not the one its MD5 names is
    /// refused; its entry is imported and the problem reported.
    @Test func testAMediumWhoseMD5DoesNotMatchIsLeftOutAndItsEntryKept() throws {
        let fixture = try DayOneFixture()
        let files = DayOneFixture.mediaFiles().map { name, data in
            name.hasPrefix("photos/\(DayOneFixture.md5(DayOneFixture.photo1))")
                ? (name, Data("not the photo".utf8)) : (name, data)
        }
        let url = try fixture.write(
            [("Journal.json", try DayOneFixture.journal(DayOneFixture.entries()))] + files)
        let summary = try fixture.importExport(url)
        #expect(summary.imported == 3 && summary.skipped == 0)
        let mismatches = summary.problems.filter { $0.kind == .mediumChecksumMismatch }
        #expect(mismatches.count == 1)
        #expect(mismatches.first?.message.hasSuffix("the photo was left out") == true)
        let store = try Store.open(at: fixture.storeURL, mode: .readOnly)
        defer { try? store.close() }
        let context = try Context(store: store, model: fixture.model)
        #expect(try context.count("DiaryEntry") == 3)
        #expect(
            try context.findFirst("Medium", where: ["identifier": .string(DayOneFixture.photoID1)])
                == nil)
        #expect(
            try context.findFirst("Medium", where: ["identifier": .string(DayOneFixture.photoID2)])
                != nil)
    }

    @Test func testWrongShapeIsRefusedWithItsPathAndNothingWritten() throws {
        let fixture = try DayOneFixture()
        let before = try fixture.snapshot()
        let cases: [(Data, String)] = [
            (Data("{\"metadata\": {}, \"entries\": {\"a\": 1}}".utf8), "entries"),
            (Data("{\"metadata\": [], \"entries\": []}".utf8), "metadata"),
            (Data("[{\"uuid\": \"x\"}]".utf8), "entries"),
        ]
        for (journal, path) in cases {
            let url = try fixture.write([("Journal.json", journal)] + DayOneFixture.mediaFiles())
            #expect {
                try fixture.importExport(url)
            } throws: { error in
                guard let error = error as? ImportError else { return false }
                return error.code == .structure && error.description.contains(path)
                    && error.description.contains("export.zip/Journal.json")
            }
        }
        #expect(try fixture.snapshot() == before)
    }

    @Test func testHostileZipEntriesAreRefusedBeforeAnythingIsWritten() throws {
        let fixture = try DayOneFixture()
        let before = try fixture.snapshot()
        let journal = ("Journal.json", try DayOneFixture.journal(DayOneFixture.entries()))
        var traversal = RawZip()
        traversal.add(RawZip.Entry(name: journal.0, content: journal.1))
        traversal.add(RawZip.Entry(name: "photos/../../evil.jpeg", content: Data("x".utf8)))
        var link = RawZip()
        link.add(RawZip.Entry(name: journal.0, content: journal.1))
        var symlink = RawZip.Entry(name: "photos/link.jpeg", content: Data("/etc/passwd".utf8))
        symlink.externalAttributes = 0o120777 << 16
        link.add(symlink)
        var bomb = RawZip()
        bomb.add(RawZip.Entry(name: journal.0, content: journal.1))
        var zeros = RawZip.Entry(name: "videos/zeros.mov", content: Data())
        zeros.payload = [UInt8](try RawDeflate.deflate(Data(count: 20 << 20)))
        zeros.method = 8
        zeros.size = 20 << 20
        zeros.compressedSize = UInt32(zeros.payload.count)
        bomb.add(zeros)
        for (zip, code) in [
            (traversal, ArchiveError.Code.parentReference), (link, .symlink),
            (bomb, .compressionRatio),
        ] {
            let url = fixture.folder.file("hostile.zip")
            try? FileManager.default.removeItem(at: url)
            try zip.data().write(to: url)
            #expect {
                try fixture.importExport(url)
            } throws: { error in
                (error as? ArchiveError)?.code == code
            }
        }
        #expect(try fixture.snapshot() == before)
    }

    @Test func testAStoreOlderThanVersion4IsRefused() throws {
        let folder = try TemporaryDirectory()
        let chain = try SchemaChain.load(directory: DayOneFixture.schemas)
        let v3 = try #require(chain.model(version: 3))
        let store = try Store.create(at: folder.file("old.sqlite"), model: v3)
        defer { try? store.close() }
        #expect {
            try DayOneImporter(store: store, model: v3)
        } throws: { error in
            "\(error)".contains("version 4 or later")
        }
    }
}
