import Foundation
import Testing

@testable import Strata
@testable import StrataFormats

struct TextBlockReaderTests {
    let fixture: TextFixture

    init() throws { fixture = try TextFixture() }

    /// The results of reading `text` (UTF-8) as blocks.
    func read(
        _ text: String, limits: ImportLimits = ImportLimits(), bodyKey: String = "body"
    ) throws -> (String, [ReadResult]) {
        try read(Array(text.utf8), limits: limits, bodyKey: bodyKey)
    }

    /// The results of reading `bytes` as blocks.
    func read(
        _ bytes: [UInt8], limits: ImportLimits = ImportLimits(), bodyKey: String = "body"
    ) throws -> (String, [ReadResult]) {
        let path = try fixture.write("blocks.txt", bytes)
        let reader = try TextBlockReader(path: path, limits: limits, bodyKey: bodyKey)
        return (path, readAll(reader))
    }

    @Test func testBlocksSeparatedBySeveralBlankLinesAreLocatedExactly() throws {
        let (path, results) = try read("Title: One\nFirst body\n\n\n\nTitle: Two\nSecond body\n")
        #expect(results.count == 2)
        let first = try #require(results[0].record)
        #expect(first.position == at(path, 1, 1, 0))
        #expect(first.pairs.map(\.0) == ["Title", "body"])
        #expect(first.text("Title") == "One" && first.text("body") == "First body")
        #expect(first.field("Title")?.position == at(path, 1, 8, 7))
        #expect(first.field("body")?.position == at(path, 2, 1, 11))
        #expect(first.originalText == Data("Title: One\nFirst body".utf8))
        let second = try #require(results[1].record)
        #expect(second.position == at(path, 6, 1, 25))
        #expect(second.field("Title")?.position == at(path, 6, 8, 32))
        #expect(second.field("body")?.position == at(path, 7, 1, 36))
        #expect(second.text("body") == "Second body")
    }

    @Test func testCRLFLinesJoinBodyWithLineFeedsAndKeepTheOriginalText() throws {
        let text = "Date: 2024-05-01\r\nTitle: Walk\r\nLine one\r\nLine two\r\n\r\nTitle: B\r\n"
        let (path, results) = try read(text)
        let first = try #require(results.first?.record)
        #expect(first.text("Date") == "2024-05-01" && first.text("Title") == "Walk")
        #expect(first.text("body") == "Line one\nLine two")
        #expect(first.field("Date")?.position == at(path, 1, 7, 6))
        #expect(first.field("Title")?.position == at(path, 2, 8, 25))
        #expect(first.field("body")?.position == at(path, 3, 1, 31))
        #expect(
            first.originalText
                == Data("Date: 2024-05-01\r\nTitle: Walk\r\nLine one\r\nLine two".utf8))
        let second = try #require(results.last?.record)
        #expect(results.count == 2)
        #expect(second.position == at(path, 6, 1, 53))
        #expect(second.keys == ["Title"])
    }

    @Test func testLoneCRAndMixedEndingsWithoutFinalNewline() throws {
        let text = "A: 1\rbody one\r\nbody two\nbody three"
        let (path, results) = try read(text)
        let record = try #require(results.first?.record)
        #expect(results.count == 1)
        #expect(record.text("A") == "1")
        #expect(record.text("body") == "body one\nbody two\nbody three")
        #expect(record.field("body")?.position == at(path, 2, 1, 5))
        #expect(record.originalText == Data(text.utf8))
    }

    @Test func testLastBlockWithoutTrailingNewline() throws {
        let (_, results) = try read("Title: X\nbody")
        let record = try #require(results.first?.record)
        #expect(record.text("body") == "body")
        #expect(record.originalText == Data("Title: X\nbody".utf8))
    }

    @Test func testHeaderOnlyBlockHasNoBodyField() throws {
        let (_, results) = try read("Date: 2024\nTags: a, b\n")
        let record = try #require(results.first?.record)
        #expect(record.keys == ["Date", "Tags"])
        #expect(record.text("Tags") == "a, b")
    }

    @Test func testBodyOnlyBlockKeepsLaterHeaderLikeLines() throws {
        let (path, results) = try read("Just some text.\nMore: text here\n")
        let record = try #require(results.first?.record)
        #expect(record.keys == ["body"])
        #expect(record.text("body") == "Just some text.\nMore: text here")
        #expect(record.field("body")?.position == at(path, 1, 1, 0))
    }

    @Test func testKeyWithEmptyValueIsEmptyTextAtTheColumnAfterIt() throws {
        let (path, results) = try read("Tags:\nTitle:   \nbody\n")
        let record = try #require(results.first?.record)
        #expect(record.pairs.map(\.1) == [.text(""), .text(""), .text("body")])
        #expect(record.field("Tags")?.position == at(path, 1, 6, 5))
        #expect(record.field("Title")?.position == at(path, 2, 10, 15))
    }

    @Test func testColonsInsideTheBodyStayBody() throws {
        let (_, results) = try read(
            "Title: Lunch\nWe met at 12:30: it was late.\nhttp://example.org\n")
        let record = try #require(results.first?.record)
        #expect(record.keys == ["Title", "body"])
        #expect(record.text("body") == "We met at 12:30: it was late.\nhttp://example.org")
    }

    @Test func testHeaderLikeLineAfterTheBodyStartedStaysBody() throws {
        let (_, results) = try read("Title: T\nSome body.\nNote: not a header\n")
        let record = try #require(results.first?.record)
        #expect(record.keys == ["Title", "body"])
        #expect(record.text("body") == "Some body.\nNote: not a header")
    }

    @Test func testValuesAreTrimmedAndNonASCIIKeysCountCharacters() throws {
        let (path, results) = try read("Título:  café  \nGröße: 3\n")
        let record = try #require(results.first?.record)
        #expect(record.text("Título") == "café")
        #expect(record.field("Título")?.position == at(path, 1, 10, 10))
        #expect(record.text("Größe") == "3")
    }

    @Test func testWhitespaceOnlyLineEndsABlock() throws {
        let (path, results) = try read("A: 1\n  \t\nB: 2\n")
        #expect(results.compactMap(\.record).map(\.keys) == [["A"], ["B"]])
        #expect(results.last?.record?.position == at(path, 3, 1, 9))
    }

    @Test func testByteOrderMarkIsSkippedAndOffsetsCountIt() throws {
        let (path, results) = try read([0xEF, 0xBB, 0xBF] + Array("Title: A\nbody\n".utf8))
        let record = try #require(results.first?.record)
        #expect(record.position == at(path, 1, 1, 3))
        #expect(record.field("Title")?.position == at(path, 1, 8, 10))
        #expect(record.field("body")?.position == at(path, 2, 1, 12))
        #expect(record.keys == ["Title", "body"])
    }

    @Test func testBadUTF8IsLocatedAndTheNextBlockIsRead() throws {
        let bytes =
            Array("Title: ok\n\nTitle: caf".utf8) + [0xE9] + Array("\nbody\n\nTitle: next\n".utf8)
        let (path, results) = try read(bytes)
        #expect(results.count == 3)
        #expect(results[0].record?.text("Title") == "ok")
        let error = try #require(results[1].error)
        #expect(error.code == .encoding)
        #expect(error.position == at(path, 3, 11, 21))
        #expect(error.message.contains("invalid UTF-8"))
        #expect(results[2].record?.text("Title") == "next")
        #expect(results[2].record?.position == at(path, 6, 1, 29))
    }

    @Test func testBadUTF8ColumnCountsCharactersBeforeIt() throws {
        let (path, results) = try read(Array("Título: é".utf8) + [0xFF, 0x0A])
        let error = try #require(results.first?.error)
        #expect(error.position == at(path, 1, 10, 11))
    }

    @Test func testOverlongUTF8IsAnEncodingError() throws {
        let (path, results) = try read(Array("A: 1\nx".utf8) + [0xC0, 0xAF] + [0x0A])
        let error = try #require(results.first?.error)
        #expect(error.code == .encoding)
        #expect(error.position == at(path, 2, 2, 6))
        #expect(error.message.contains("overlong"))
    }

    @Test func testNULIsLocated() throws {
        let (path, results) = try read(
            Array("Body: fine\n\nTitle: a".utf8) + [0] + Array("b\n".utf8))
        #expect(results[0].record?.text("Body") == "fine")
        let error = try #require(results[1].error)
        #expect(error.code == .encoding)
        #expect(error.position == at(path, 3, 9, 20))
        #expect(error.message.contains("NUL"))
    }

    @Test func testOversizeBlockIsTooLargeAndReadingGoesOn() throws {
        var limits = ImportLimits()
        limits.maximumRecordBytes = 64
        let text =
            "Title: big\n" + String(repeating: "x", count: 40) + "\n"
            + String(repeating: "y", count: 40) + "\n\nTitle: small\n"
        let (path, results) = try read(text, limits: limits)
        #expect(results.count == 2)
        let error = try #require(results[0].error)
        #expect(error.code == .tooLarge)
        #expect(error.position == at(path, 1, 1, 0))
        #expect(results[1].record?.text("Title") == "small")
        #expect(results[1].record?.position == at(path, 5, 1, 94))
    }

    @Test func testLineLongerThanTheBlockLimitIsTooLarge() throws {
        var limits = ImportLimits()
        limits.maximumRecordBytes = 64
        let text = "A: 1\n" + String(repeating: "z", count: 500) + "\n\nB: 2"
        let (path, results) = try read(text, limits: limits)
        #expect(results.first?.error?.code == .tooLarge)
        #expect(results.first?.error?.position == at(path, 1, 1, 0))
        #expect(results.last?.record?.keys == ["B"])
    }

    @Test func testValueOverTheFieldLimitIsTooLarge() throws {
        var limits = ImportLimits()
        limits.maximumFieldBytes = 10
        let (path, results) = try read(
            "Title: 12345678901\n\nTitle: short\n" + String(repeating: "b", count: 11),
            limits: limits)
        #expect(results[0].error?.code == .tooLarge)
        #expect(results[0].error?.position == at(path, 1, 8, 7))
        #expect(results[1].error?.code == .tooLarge)
        #expect(results[1].error?.position == at(path, 4, 1, 33))
    }

    @Test func testMoreHeadersThanTheFieldCountLimitIsTooLarge() throws {
        var limits = ImportLimits()
        limits.maximumFieldCount = 2
        let (_, results) = try read("A: 1\nB: 2\nC: 3\n", limits: limits)
        #expect(results.first?.error?.code == .tooLarge)
    }

    @Test func testReasonLinesOfARejectsFileAreSkipped() throws {
        let text =
            "#strata-error: bad date\nDate: x\nbody\n\n#strata-error: y\n#strata-error: z\nDate: y\n"
        let (path, results) = try read(text)
        let records = results.compactMap(\.record)
        #expect(records.count == 2 && results.count == 2)
        #expect(records[0].position == at(path, 2, 1, 24))
        #expect(records[0].originalText == Data("Date: x\nbody".utf8))
        #expect(records[1].position == at(path, 7, 1, 72))
        #expect(records[1].keys == ["Date"])
    }

    @Test func testReasonLineEndsABlockLikeABlankLine() throws {
        let (_, results) = try read("A: 1\n#strata-error: r\nB: 2\n")
        #expect(results.compactMap(\.record).map(\.keys) == [["A"], ["B"]])
    }

    @Test func testRepeatedHeaderIsAStructureErrorIgnoringCase() throws {
        let (path, results) = try read("Date: 1\ndate: 2\nbody\n\nDate: 3\n")
        let error = try #require(results.first?.error)
        #expect(error.code == .structure)
        #expect(error.position == at(path, 2, 7, 14))
        #expect(results.last?.record?.text("Date") == "3")
    }

    @Test func testRepeatedHeaderIsFoundAmongManyHeaders() throws {
        let many = (1...40).map { "Key \($0): v\n" }.joined()
        let (path, results) = try read(many + "\n" + many + "KEY 3: again\n")
        #expect(results.first?.record?.fields.count == 40)
        let error = try #require(results.last?.error)
        #expect(error.code == .structure)
        #expect(error.position.file == path && error.position.line == 82)
    }

    @Test func testBodyHeaderWithBodyTextIsAStructureError() throws {
        let (path, results) = try read("Body: x\nmore text\n\nBody: only\n")
        #expect(results.first?.error?.code == .structure)
        #expect(results.first?.error?.position == at(path, 1, 7, 6))
        #expect(results.last?.record?.pairs.first?.1 == .text("only"))
        #expect(results.last?.record?.keys == ["Body"])
    }

    @Test func testBodyKeyIsConfigurable() throws {
        let (_, results) = try read("Title: T\nhello\n", bodyKey: "text")
        #expect(results.first?.record?.keys == ["Title", "text"])
    }

    /// A UTF-16 file was refused until the txt readers read through
    /// ``TextInput`` (issue 30); its byte-order mark now decides, as for CSV.
    @Test func testUTF16FileIsReadByItsByteOrderMark() throws {
        let (path, results) = try read(
            [0xFF, 0xFE] + Array("A: 1\n".utf16).flatMap { [UInt8($0), 0] })
        #expect(results.count == 1)
        let record = try #require(results.first?.record)
        #expect(record.text("A") == "1")
        #expect(record.position.file == path)
        #expect(record.position.line == 1 && record.position.column == 1)
    }

    @Test func testMissingFileIsUnreadable() {
        #expect {
            _ = try TextBlockReader(path: fixture.path("missing.txt"))
        } throws: { ($0 as? ImportError)?.code == .unreadable }
    }

    @Test func testEmptyAndBlankFilesHaveNoRecords() throws {
        #expect(try read("").1.isEmpty)
        #expect(try read("\n\n  \n").1.isEmpty)
        #expect(try read([0xEF, 0xBB, 0xBF]).1.isEmpty)
    }

    @Test func testProgressReachesTheFileSize() throws {
        let path = try fixture.write("p.txt", "A: 1\nx\n\nB: 2\ny\n")
        let reader = try TextBlockReader(path: path)
        #expect(reader.totalBytes == 15 && reader.bytesRead == 0)
        _ = try reader.nextRecord()
        #expect(reader.bytesRead == 8)  // Through the blank line that ended the block.
        while try reader.nextRecord() != nil {}
        #expect(reader.bytesRead == 15)
    }

    @Test func testDiaryShapedSampleAsTheBenchmarkWritesIt() throws {
        // The shape of ../shared/bench/gen.py's diary.txt.
        let text = """
            Date: 2010-01-01T00:00:00Z
            Title: Berry letter river
            Tags: bridge, tart
            Crepe cake pistache ginger macaron crepe waffle frosting rain.
            Walk waffle rain cake macaron.

            Date: 2010-01-01T00:37:00Z
            Title: Sunset waffle rain
            Tags: cake, berry
            Strawberry pistache tart river frosting rain letter macaron strawberry.

            Date: 2010-01-01T01:14:00Z
            Title: Garden coffee snap
            Tags: cobbler, berry
            Garden waffle travel cobbler berry cobbler bridge garden cobbler.
            Chocolate cobbler walk.
            Frosting strawberry bridge.


            """
        let (path, results) = try read(text)
        let records = results.compactMap(\.record)
        #expect(records.count == 3 && results.count == 3)
        #expect(records.allSatisfy { $0.keys == ["Date", "Title", "Tags", "body"] })
        #expect(
            records.map { $0.text("Date") } == [
                "2010-01-01T00:00:00Z", "2010-01-01T00:37:00Z", "2010-01-01T01:14:00Z",
            ])
        #expect(records[1].text("Tags") == "cake, berry")
        #expect(records[2].text("body")?.split(separator: "\n").count == 3)
        #expect(records.map(\.position.line) == [1, 7, 12])
        #expect(records[2].field("body")?.position?.line == 15)
        #expect(records[0].field("Date")?.position == at(path, 1, 7, 6))
    }
}
