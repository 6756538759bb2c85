import Foundation
import Testing

@testable import Strata
@testable import StrataFormats

struct TextFileReaderTests {
    let fixture: TextFixture
    var folder: String { fixture.directory.url.path }

    init() throws { fixture = try TextFixture() }

    func reader(
        limits: ImportLimits = ImportLimits(), parsesHeaders: Bool = true
    ) throws -> TextFileReader {
        try TextFileReader(folder: folder, limits: limits, parsesHeaders: parsesHeaders)
    }

    @Test func testFilesAreReadInNameOrderSkippingHiddenOtherAndFolders() throws {
        try fixture.write("b.txt", "B")
        try fixture.write("a.txt", "A")
        try fixture.write("C.TXT", "C")
        try fixture.write("ä.txt", "Ä")
        try fixture.write(".hidden.txt", "hidden")
        try fixture.write("notes.md", "markdown")
        try fixture.write("txt", "no extension")
        try FileManager.default.createDirectory(
            atPath: fixture.path("sub.txt"), withIntermediateDirectories: false)
        try fixture.write("sub.txt/inner.txt", "inner")
        let reader = try reader()
        #expect(reader.fileNames == ["C.TXT", "a.txt", "b.txt", "ä.txt"])
        let titles = readAll(reader).map { $0.record?.text("title") }
        #expect(titles == ["C", "A", "B", "Ä"])
    }

    @Test func testTitleIsTheFirstLineAndBodyTheRestWithoutOuterBlankLines() throws {
        let path = try fixture.write(
            "n.txt", "\n  Shopping list  \n\n\nMilk, eggs.\n\n  Flour.\n\n\n")
        let record = try #require(try reader().nextRecord())
        #expect(record.keys == ["title", "body", "modified"])
        #expect(record.text("title") == "Shopping list")
        #expect(record.text("body") == "Milk, eggs.\n\n  Flour.")
        #expect(record.position == at(path, 1, 1, 0))
        #expect(record.field("title")?.position == at(path, 2, 3, 3))
        #expect(record.field("body")?.position == at(path, 5, 1, 21))
        #expect(record.field("modified")?.position == SourcePosition(file: path))
        #expect(
            record.originalText
                == Data("\n  Shopping list  \n\n\nMilk, eggs.\n\n  Flour.\n\n\n".utf8))
    }

    @Test func testCRLFFileJoinsTheBodyWithLineFeeds() throws {
        try fixture.write("n.txt", "Title\r\n\r\nOne\r\nTwo\r\n")
        let record = try #require(try reader().nextRecord())
        #expect(record.text("title") == "Title" && record.text("body") == "One\nTwo")
    }

    @Test func testHeaderLinesBecomeFieldsAndTheTitleFollowsThem() throws {
        let path = try fixture.write(
            "n.txt", "Date: 2024-05-01T08:30:00Z\nTags: home\nGroceries\nMilk.\nNote: still body\n")
        let record = try #require(try reader().nextRecord())
        #expect(record.keys == ["Date", "Tags", "title", "body", "modified"])
        #expect(record.text("Date") == "2024-05-01T08:30:00Z")
        #expect(record.text("title") == "Groceries")
        #expect(record.text("body") == "Milk.\nNote: still body")
        #expect(record.field("Tags")?.position == at(path, 2, 7, 33))
        #expect(record.field("title")?.position == at(path, 3, 1, 38))
    }

    @Test func testATitleHeaderMakesEveryFollowingLineBody() throws {
        try fixture.write("n.txt", "Title: From the header\n\nFirst line of the body\nsecond\n")
        let record = try #require(try reader().nextRecord())
        #expect(record.keys == ["Title", "body", "modified"])
        #expect(record.text("body") == "First line of the body\nsecond")
    }

    @Test func testHeadersCanBeTurnedOffForTitlesWithColons() throws {
        try fixture.write("n.txt", "Recipe: lemon cake\nMix.\n")
        let record = try #require(try reader(parsesHeaders: false).nextRecord())
        #expect(record.text("title") == "Recipe: lemon cake")
        #expect(record.text("body") == "Mix.")
    }

    @Test func testModifiedCarriesTheFileModificationTime() throws {
        let path = try fixture.write("n.txt", "Title only")
        let date = Date(timeIntervalSince1970: 1_700_000_000)
        try FileManager.default.setAttributes([.modificationDate: date], ofItemAtPath: path)
        let record = try #require(try reader().nextRecord())
        #expect(record.keys == ["title", "modified"])
        #expect(record.field("modified")?.value == .date(date))
    }

    @Test func testAModifiedHeaderReplacesTheFileTime() throws {
        try fixture.write("n.txt", "Modified: 2024-01-01\nTitle")
        let record = try #require(try reader().nextRecord())
        #expect(record.keys == ["Modified", "title"])
    }

    @Test func testEmptyAndBlankFilesAreStructureErrorsAndReadingGoesOn() throws {
        let empty = try fixture.write("a.txt", "")
        let blank = try fixture.write("b.txt", [0xEF, 0xBB, 0xBF] + Array(" \n\n\t\n".utf8))
        try fixture.write("c.txt", "Real")
        let results = readAll(try reader())
        #expect(results.count == 3)
        #expect(
            results[0].error == ImportError(.structure, at: at(empty, 1, 1, 0), "the file is empty")
        )
        #expect(results[1].error?.code == .structure)
        #expect(results[1].error?.position.file == blank)
        #expect(results[2].record?.text("title") == "Real")
    }

    @Test func testSymbolicLinksAreRefusedNotFollowed() throws {
        let outside = try TemporaryDirectory()
        let target = outside.file("secret.txt")
        try Data("Secret".utf8).write(to: target)
        try fixture.write("a.txt", "A")
        try FileManager.default.createSymbolicLink(
            atPath: fixture.path("b.txt"), withDestinationPath: target.path)
        try FileManager.default.createSymbolicLink(
            atPath: fixture.path("c.txt"), withDestinationPath: fixture.path("a.txt"))
        let reader = try reader()
        #expect(reader.fileNames == ["a.txt", "b.txt", "c.txt"])
        #expect(reader.totalBytes == 1)
        let results = readAll(reader)
        #expect(results.count == 3)
        #expect(results[0].record?.text("title") == "A")
        #expect(results[1].error?.code == .unsafePath)
        #expect(results[1].error?.position == SourcePosition(file: fixture.path("b.txt")))
        #expect(results[2].error?.code == .unsafePath)
    }

    @Test func testBadUTF8IsLocatedInItsFile() throws {
        let path = try fixture.write("a.txt", Array("Title\nbody caf".utf8) + [0xE9, 0x0A])
        try fixture.write("b.txt", "Next")
        let results = readAll(try reader())
        #expect(results[0].error?.code == .encoding)
        #expect(results[0].error?.position == at(path, 2, 9, 14))
        #expect(results[1].record?.text("title") == "Next")
    }

    @Test func testFileOverTheRecordLimitIsTooLargeAndNotRead() throws {
        var limits = ImportLimits()
        limits.maximumRecordBytes = 32
        let path = try fixture.write("a.txt", "Title\n" + String(repeating: "x", count: 40))
        try fixture.write("b.txt", "Small")
        let results = readAll(try reader(limits: limits))
        #expect(results[0].error?.code == .tooLarge)
        #expect(results[0].error?.position == SourcePosition(file: path))
        #expect(results[1].record?.text("title") == "Small")
    }

    @Test func testProgressSumsTheFileSizes() throws {
        try fixture.write("a.txt", "12345")
        try fixture.write("b.txt", "123")
        let reader = try reader()
        #expect(reader.totalBytes == 8 && reader.bytesRead == 0)
        _ = try reader.nextRecord()
        #expect(reader.bytesRead == 5)
        _ = try reader.nextRecord()
        #expect(reader.bytesRead == 8)
        #expect(try reader.nextRecord() == nil)
    }

    @Test func testMissingFolderIsUnreadable() {
        #expect {
            _ = try TextFileReader(folder: fixture.path("missing"))
        } throws: { ($0 as? ImportError)?.code == .unreadable }
    }

    @Test func testNotesShapedSampleAsTheBenchmarkWritesThem() throws {
        // The shape of ../shared/bench/gen.py's notes/: a title, a blank line, sentences.
        try fixture.write(
            "note-00000.txt",
            "Waffle rain snap ginger\n\nRiver sunset travel coffee.\nCobbler rain walk ginger.\n")
        try fixture.write("note-00001.txt", "Train museum letter tart\n\nCrepe garden.\n")
        let records = readAll(try reader()).compactMap(\.record)
        #expect(
            records.map { $0.text("title") } == [
                "Waffle rain snap ginger", "Train museum letter tart",
            ])
        #expect(records[0].text("body") == "River sunset travel coffee.\nCobbler rain walk ginger.")
        #expect(records[1].field("body")?.position == at(fixture.path("note-00001.txt"), 3, 1, 26))
        #expect(records.allSatisfy { $0.keys == ["title", "body", "modified"] })
    }

    // MARK: - Issue 28, point 8: the file's name into a field

    @Test("txt-files import records each file's name")
    func testFileNameKeyGivesEachRecordItsFileNameWithTheExtension() throws {
        let path = try fixture.write("2024-05-01 Market.txt", "Market\n\nApples.\n")
        try fixture.write("b.TXT", "B\n")
        let naming = try TextFileReader(folder: folder, fileNameKey: "source")
        let records = readAll(naming).compactMap(\.record)
        #expect(records.map { $0.text("source") } == ["2024-05-01 Market.txt", "b.TXT"])
        #expect(records[0].keys == ["title", "body", "source", "modified"])
        #expect(records[0].field("source")?.position == SourcePosition(file: path))
        // Without the key, no such field.
        #expect(try reader().nextRecord()?.keys == ["title", "body", "modified"])
    }

    @Test func testAHeaderNamedLikeTheFileNameKeyIsRefusedAtItsPlace() throws {
        let path = try fixture.write("n.txt", "source: typed\nTitle\n")
        let results = readAll(try TextFileReader(folder: folder, fileNameKey: "source"))
        guard case .error(let error)? = results.first else {
            Issue.record("expected an error, got \(results)")
            return
        }
        #expect(error.code == .structure)
        #expect(error.position.file == path && error.position.line == 1)
        #expect(error.message.contains("'source'"))
    }
}
