import Foundation
import Testing

@testable import Strata
@testable import StrataFormats

/// Bad input: each error's code, line and column, and that the reader goes on
/// with the next record where it can.
struct CSVReaderErrorTests {
    /// Reads the record after the header of `bytes`, expecting an error.
    private func firstRecordError(
        _ bytes: [UInt8], dialect: CSVDialect = .csv, limits: ImportLimits = .init()
    ) throws -> (error: ImportError, reader: CSVReader) {
        let fixture = try CSVFixture()
        let reader = try CSVReader(
            path: fixture.write(bytes), dialect: dialect, limits: limits, bufferSize: 1 << 20)
        let error = try #require(throws: ImportError.self) { try reader.nextRecord() }
        return (error, reader)
    }

    // MARK: - Encoding

    static let invalidUTF8: [([UInt8], String)] = [
        ([0xFF], "never appears"),
        ([0xF8, 0x88, 0x80, 0x80, 0x80], "never appears"),
        ([0xC0, 0xAF], "overlong"),
        ([0xC1, 0xBF], "overlong"),
        ([0xE0, 0x80, 0xAF], "overlong"),
        ([0xF0, 0x80, 0x80, 0xAF], "overlong"),
        ([0xED, 0xA0, 0x80], "surrogate"),
        ([0xED, 0xBF, 0xBF], "surrogate"),
        ([0xF4, 0x90, 0x80, 0x80], "above U+10FFFF"),
        ([0xF5, 0x80, 0x80, 0x80], "above U+10FFFF"),
        ([0x80], "continuation byte"),
        ([0xE2, 0x82], "cut short"),
        ([0xC3, 0x28], "cut short"),
        ([0xF0, 0x9F, 0x98], "cut short"),
        ([0x00], "NUL"),
    ]

    @Test(arguments: invalidUTF8)
    func testInvalidUTF8AndNULAreEncodingErrorsAtTheByte(bad: [UInt8], reason: String) throws {
        let bytes = Array("a,b\nok,x".utf8) + bad + Array("y\n1,2\n".utf8)
        let (error, reader) = try firstRecordError(bytes)
        #expect(error.code == .encoding)
        #expect((error.position.line, error.position.column) == (2, 5))
        #expect(error.position.byteOffset == 8)
        #expect(error.message.contains(reason))
        #expect(reader.events() == [.record(["1", "2"])])
    }

    @Test func testValidUTF8AtTheEdgesOfTheRangesIsAccepted() throws {
        let fixture = try CSVFixture()
        let text = "a\n\u{80}\u{7FF}\u{800}\u{D7FF}\u{E000}\u{FFFF}\u{10000}\u{10FFFF}\n"
        #expect(
            try fixture.reader(text).events() == [
                .record(["\u{80}\u{7FF}\u{800}\u{D7FF}\u{E000}\u{FFFF}\u{10000}\u{10FFFF}"])
            ])
    }

    @Test func testEncodingErrorColumnCountsCharactersBeforeIt() throws {
        let (error, _) = try firstRecordError(Array("a,b\né,ü".utf8) + [0xFF, 0x0A])
        #expect(error.code == .encoding)
        #expect((error.position.line, error.position.column) == (2, 4))
        #expect(error.position.byteOffset == 9)
    }

    @Test func testEncodingErrorInAQuotedFieldWithDoubledQuotes() throws {
        let bytes = Array("a,b\n\"a\"\"b".utf8) + [0xFF] + Array("\",c\n".utf8)
        let (error, _) = try firstRecordError(bytes)
        #expect(error.code == .encoding)
        #expect((error.position.line, error.position.column) == (2, 6))
        #expect(error.position.byteOffset == 9)
    }

    @Test func testEncodingErrorOnTheSecondLineOfAQuotedField() throws {
        let bytes = Array("a,b\n\"ab\nc".utf8) + [0xC0, 0x80] + Array("\",d\n".utf8)
        let (error, _) = try firstRecordError(bytes)
        #expect(error.code == .encoding)
        #expect((error.position.line, error.position.column) == (3, 2))
        #expect(error.position.byteOffset == 9)
    }

    // MARK: - Syntax

    @Test func testTextAfterAClosingQuoteIsASyntaxErrorAtTheText() throws {
        let fixture = try CSVFixture()
        let reader = try fixture.reader("a,b\n\"x\"y,z\n1,\"x\" \n\"ok\",2\n")
        #expect(
            reader.events() == [
                .error(.syntax, "2:4"), .error(.syntax, "3:6"), .record(["\"ok\"", "2"]),
            ])
        let again = try fixture.reader("a,b\n\"x\"y,z\n")
        let error = try #require(throws: ImportError.self) { try again.nextRecord() }
        #expect(error.message.contains("closing quote"))
        #expect(again.recordText() == Data("\"x\"y,z".utf8))
    }

    @Test func testUnclosedQuoteAtTheEndNamesTheLineWhereTheFieldStarted() throws {
        let fixture = try CSVFixture()
        let text = "a,b\n1,2\n3,\"open\nmore\n\"\"lines"
        #expect(
            try fixture.reader(text).events() == [.record(["1", "2"]), .error(.syntax, "3:3")])
        let reader = try fixture.reader(text)
        _ = try reader.nextRecord()
        let error = try #require(throws: ImportError.self) { try reader.nextRecord() }
        #expect(error.code == .syntax)
        #expect(error.message.contains("line 3"))
        #expect(error.position.byteOffset == 10)
        #expect(reader.recordText() == Data("3,\"open\nmore\n\"\"lines".utf8))
        #expect(try reader.nextRecord() == false)
    }

    // MARK: - Structure

    @Test func testRaggedRowIsAStructureErrorAndTheReaderGoesOn() throws {
        let fixture = try CSVFixture()
        let reader = try fixture.reader("a,b,c\n1,2,3\n1,2\n1,2,3,4\n4,5,6\n")
        #expect(
            reader.events() == [
                .record(["1", "2", "3"]), .error(.structure, "3:1"), .error(.structure, "4:1"),
                .record(["4", "5", "6"]),
            ])
        let again = try fixture.reader("a,b,c\n1,2\n")
        let error = try #require(throws: ImportError.self) { try again.nextRecord() }
        #expect(error.code == .structure)
        #expect(error.message == "the record has 2 fields; the header has 3")
        #expect(again.renderedFields() == ["1", "2"])
        #expect(again.recordText() == Data("1,2".utf8))
    }

    @Test func testWithoutHeaderTheFirstRecordSetsTheFieldCount() throws {
        let fixture = try CSVFixture()
        let reader = try fixture.reader("1,2\n1\n3,4\n", dialect: CSVDialect(hasHeader: false))
        #expect(
            reader.events() == [
                .record(["1", "2"]), .error(.structure, "2:1"), .record(["3", "4"]),
            ])
    }

    // MARK: - Limits

    @Test func testFieldOverTheLimitIsTooLarge() throws {
        let fixture = try CSVFixture()
        var limits = ImportLimits()
        limits.maximumFieldBytes = 8
        let text = "a,b\n123456789,x\n12345678,\"1234\"\"567\"\nx,\"123456789\"\n1,2\n"
        let expected: [CSVEvent] = [
            .error(.tooLarge, "2:1"), .record(["12345678", "\"1234\"567\""]),
            .error(.tooLarge, "4:3"), .record(["1", "2"]),
        ]
        for bufferSize in [1, 2, 3, 5, 8, 13, 1 << 20] {
            let reader = try fixture.reader(text, limits: limits, bufferSize: bufferSize)
            #expect(reader.events() == expected, "buffer of \(bufferSize) bytes")
        }
    }

    @Test func testRecordOverTheLimitIsTooLargeAndSkippedWholeWithItsLines() throws {
        let fixture = try CSVFixture()
        var limits = ImportLimits()
        limits.maximumRecordBytes = 6
        let text = "a,b\n12345,678901\n\"1\n2\n3\n4\n5\",x\n1,2\n"
        for bufferSize in [1, 2, 4, 7, 1 << 20] {
            let reader = try fixture.reader(text, limits: limits, bufferSize: bufferSize)
            #expect(
                reader.events() == [
                    .error(.tooLarge, "2:1"), .error(.tooLarge, "3:1"), .record(["1", "2"]),
                ], "buffer of \(bufferSize) bytes")
            let again = try fixture.reader(text, limits: limits, bufferSize: bufferSize)
            #expect(throws: ImportError.self) { try again.nextRecord() }
            #expect(throws: ImportError.self) { try again.nextRecord() }
            #expect(try again.nextRecord())
            #expect(again.recordPosition.line == 8)
        }
    }

    @Test func testTooManyFieldsIsTooLarge() throws {
        let fixture = try CSVFixture()
        var limits = ImportLimits()
        limits.maximumFieldCount = 3
        let reader = try fixture.reader(
            "1,2\na,b,c,d\n5,6\n", dialect: CSVDialect(hasHeader: false), limits: limits)
        #expect(
            reader.events() == [
                .record(["1", "2"]), .error(.tooLarge, "2:1"), .record(["5", "6"]),
            ])
    }

    @Test func testMemoryStaysBoundedByTheRecordLimit() throws {
        let fixture = try CSVFixture()
        var limits = ImportLimits()
        limits.maximumRecordBytes = 1000
        let text = "a,b\nx," + String(repeating: "y", count: 100_000) + "\n1,2\n"
        let reader = try fixture.reader(text, limits: limits, bufferSize: 64)
        let error = try #require(throws: ImportError.self) { try reader.nextRecord() }
        #expect(error.code == .tooLarge)
        #expect(reader.capacity <= 1002)
        #expect(reader.recordText().isEmpty)
        #expect(try reader.nextRecord())
        #expect(reader.renderedFields() == ["1", "2"])
        #expect(reader.capacity == 64)
    }

    // MARK: - Files and dialects

    @Test func testMissingFileOrFolderIsUnreadable() throws {
        let fixture = try CSVFixture()
        for path in [fixture.directory.file("missing.csv").path, fixture.directory.url.path] {
            let error = try #require(throws: ImportError.self) { try CSVReader(path: path) }
            #expect(error.code == .unreadable)
            #expect(error.position.file == path)
        }
    }

    @Test func testUnusableDialectIsRefused() throws {
        let fixture = try CSVFixture()
        let path = try fixture.write("a,b\n")
        for dialect in [
            CSVDialect(delimiter: UInt8(ascii: "\""), quote: UInt8(ascii: "\"")),
            CSVDialect(delimiter: UInt8(ascii: "\n")),
            CSVDialect(quote: UInt8(ascii: "\r")),
            CSVDialect(delimiter: 0xA7),
        ] {
            #expect(throws: ImportError.self) { try CSVReader(path: path, dialect: dialect) }
        }
    }

    @Test func testMalformedHeaderFailsTheOpening() throws {
        let fixture = try CSVFixture()
        let path = try fixture.write(Array("a,\"b".utf8))
        let error = try #require(throws: ImportError.self) { try CSVReader(path: path) }
        #expect(error.code == .syntax)
        #expect((error.position.line, error.position.column) == (1, 3))
    }

    // MARK: - UTF-16

    static let badUTF16Tails: [(units: [UInt16], message: String)] = [
        ([0xD800, 0x0079, 0x000A], "unpaired UTF-16 high surrogate"),
        ([0xDC00, 0x0079, 0x000A], "unpaired UTF-16 low surrogate"),
        ([0xD800], "unpaired UTF-16 high surrogate"),
    ]

    @Test(arguments: [false, true], badUTF16Tails)
    func testUnpairedSurrogateIsAnEncodingErrorAfterTheGoodRecords(
        bigEndian: Bool, tail: (units: [UInt16], message: String)
    ) throws {
        let fixture = try CSVFixture()
        var bytes = utf16Bytes("a,b\r\n1,2\r\nx,", bigEndian: bigEndian)
        for unit in tail.units { bytes += utf16Bytes(unit: unit, bigEndian: bigEndian) }
        for bufferSize in [1, 3, 1 << 20] {
            let reader = try CSVReader(
                path: fixture.write(bytes), dialect: .csv, limits: .init(), bufferSize: bufferSize)
            #expect(reader.events() == [.record(["1", "2"]), .error(.encoding, "3:3")])
            let error = try #require(throws: ImportError.self) { try reader.nextRecord() }
            #expect(error.position.byteOffset == 26)
            #expect(error.message.contains(tail.message))
        }
    }

    @Test func testUTF16EndingInTheMiddleOfACodeUnit() throws {
        let fixture = try CSVFixture()
        let bytes = utf16Bytes("a,b\n", bigEndian: false) + [0x41]
        let reader = try CSVReader(path: fixture.write(bytes), dialect: .csv)
        let error = try #require(throws: ImportError.self) { try reader.nextRecord() }
        #expect(error.code == .encoding)
        #expect(
            (error.position.line, error.position.column, error.position.byteOffset) == (2, 1, 10))
    }

    @Test func testUTF16WithoutAByteOrderMarkIsRefused() throws {
        let fixture = try CSVFixture()
        let path = try fixture.write(utf16Bytes("a,b\n", bigEndian: false, byteOrderMark: false))
        let error = try #require(throws: ImportError.self) {
            try CSVReader(path: path, dialect: CSVDialect(encoding: .utf16))
        }
        #expect(error.code == .encoding)
        #expect(error.message.contains("byte-order mark"))
    }
}
