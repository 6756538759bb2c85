import Foundation
import Testing

@testable import Strata
@testable import StrataFormats

/// RFC 4180 and the dialects people meet: what the reader accepts.
struct CSVReaderTests {
    // MARK: - RFC 4180

    @Test func testReadsHeaderAndRecords() throws {
        let fixture = try CSVFixture()
        let reader = try fixture.reader("name,email\nAda,ada@example.org\nAlan,alan@example.org\n")
        #expect(reader.header == ["name", "email"])
        #expect(
            reader.events() == [
                .record(["Ada", "ada@example.org"]), .record(["Alan", "alan@example.org"]),
            ])
        #expect(try reader.nextRecord() == false)
        #expect(reader.fieldCount == 0)
    }

    @Test func testLineEndingsCRLFLFCRAndMixed() throws {
        let fixture = try CSVFixture()
        let reader = try fixture.reader("a,b\r\n1,2\n3,4\r5,6\r\n7,8")
        var lines: [Int] = []
        var records: [[String]] = []
        while try reader.nextRecord() {
            lines.append(reader.recordPosition.line)
            records.append(reader.renderedFields())
        }
        #expect(records == [["1", "2"], ["3", "4"], ["5", "6"], ["7", "8"]])
        #expect(lines == [2, 3, 4, 5])
    }

    @Test func testQuotedFieldHoldsDelimiterDoubledQuotesAndLineBreaks() throws {
        let fixture = try CSVFixture()
        let text = "\"a,b\",\"say \"\"hi\"\"\",\"one\r\ntwo\nthree\rfour\"\nx,y,z\n"
        let reader = try fixture.reader(text, dialect: CSVDialect(hasHeader: false))
        #expect(try reader.nextRecord())
        #expect(
            reader.renderedFields() == [
                "\"a,b\"", "\"say \"hi\"\"", "\"one\r\ntwo\nthree\rfour\"",
            ])
        #expect(reader.recordPosition.line == 1)
        // CRLF, LF and CR inside the quotes are three line breaks.
        #expect(try reader.nextRecord())
        #expect(reader.renderedFields() == ["x", "y", "z"])
        #expect(reader.recordPosition.line == 5)
    }

    @Test func testOnlyDoubledQuotesAreUndoubled() throws {
        let fixture = try CSVFixture()
        let reader = try fixture.reader(
            "\"\"\"\",\"\"\"\"\"\",\"a\"\"\"\n", dialect: CSVDialect(hasHeader: false))
        #expect(reader.events() == [.record(["\"\"\"", "\"\"\"\"", "\"a\"\""])])
    }

    @Test func testEmptyUnquotedFieldIsNoValueButEmptyQuotedFieldIsAString() throws {
        let fixture = try CSVFixture()
        let reader = try fixture.reader("a,,\"\",b\n,\n", dialect: CSVDialect(hasHeader: false))
        #expect(try reader.nextRecord())
        #expect(reader.fieldCount == 4)
        #expect((0..<4).map { reader.field($0).count } == [1, 0, 0, 1])
        #expect((0..<4).map { reader.isQuoted($0) } == [false, false, true, false])
        #expect(reader.events() == [.error(.structure, "2:1")])
    }

    @Test func testTrailingDelimiterEndsWithAnEmptyField() throws {
        let fixture = try CSVFixture()
        let reader = try fixture.reader("a,b\n1,\n,2\n,", dialect: .csv)
        #expect(reader.events() == [.record(["1", ""]), .record(["", "2"]), .record(["", ""])])
    }

    @Test func testLastRecordNeedsNoLineBreak() throws {
        let fixture = try CSVFixture()
        #expect(try fixture.reader("a,b\n1,2").events() == [.record(["1", "2"])])
        #expect(try fixture.reader("a,b\n1,\"2\"").events() == [.record(["1", "\"2\""])])
        #expect(try fixture.reader("a,b\n1,2\r").events() == [.record(["1", "2"])])
    }

    /// A quote is special only at a field's start, as in most readers.
    @Test func testQuoteInsideUnquotedFieldIsKeptLiterally() throws {
        let fixture = try CSVFixture()
        let reader = try fixture.reader(
            "ab\"c,d\"e\",5\" tall, \"x\"\n", dialect: CSVDialect(hasHeader: false))
        #expect(try reader.nextRecord())
        #expect(reader.renderedFields() == ["ab\"c", "d\"e\"", "5\" tall", " \"x\""])
        #expect((0..<4).allSatisfy { !reader.isQuoted($0) })
    }

    @Test func testBlankLinesAreSkipped() throws {
        let fixture = try CSVFixture()
        let reader = try fixture.reader("\n\r\nh1,h2\n\n1,2\r\n\r\n\r3,4\n\n\n")
        #expect(reader.header == ["h1", "h2"])
        var lines: [Int] = []
        while try reader.nextRecord() { lines.append(reader.recordPosition.line) }
        #expect(lines == [5, 8])
    }

    @Test func testEmptyFileHasNoHeaderAndNoRecords() throws {
        let fixture = try CSVFixture()
        let reader = try fixture.reader("")
        #expect(reader.header == nil)
        #expect(try reader.nextRecord() == false)
        let blank = try fixture.reader("\n\r\n")
        #expect(blank.header == nil)
        #expect(try blank.nextRecord() == false)
    }

    @Test func testRecordTextIsTheRecordAsWrittenWithoutItsLineBreak() throws {
        let fixture = try CSVFixture()
        let reader = try fixture.reader(
            "a,\"b\r\nc\",\"d\"\"\"\r\nnext,1,2", dialect: CSVDialect(hasHeader: false))
        #expect(try reader.nextRecord())
        #expect(reader.recordText() == Data("a,\"b\r\nc\",\"d\"\"\"".utf8))
        #expect(try reader.nextRecord())
        #expect(reader.recordText() == Data("next,1,2".utf8))
    }

    // MARK: - Positions

    @Test func testFieldPositionsCountCharactersPhysicalLinesAndBytes() throws {
        let fixture = try CSVFixture()
        let reader = try fixture.reader(
            "héllo,\"wörld\",x\na,\"x\ny\",z\n", dialect: CSVDialect(hasHeader: false))
        #expect(try reader.nextRecord())
        let first = (0..<3).map { reader.position(ofField: $0) }
        #expect(first.map(\.line) == [1, 1, 1])
        #expect(first.map(\.column) == [1, 7, 15])
        #expect(first.map(\.byteOffset) == [0, 7, 16])
        #expect(first.allSatisfy { $0.file == reader.file })
        #expect(try reader.nextRecord())
        #expect(
            reader.recordPosition
                == SourcePosition(
                    file: reader.file, line: 2, column: 1, byteOffset: 18))
        let second = (0..<3).map { reader.position(ofField: $0) }
        #expect(second.map(\.line) == [2, 2, 3])
        #expect(second.map(\.column) == [1, 3, 4])
        #expect(second.map(\.byteOffset) == [18, 20, 26])
    }

    @Test func testReportsProgressInBytesOfTheFile() throws {
        let fixture = try CSVFixture()
        let text = "a,b\n" + String(repeating: "1,2\n", count: 1000)
        let reader = try fixture.reader(text, bufferSize: 256)
        #expect(reader.totalBytes == Int64(text.utf8.count))
        #expect(reader.bytesRead <= 256)
        var count = 0
        while try reader.nextRecord() { count += 1 }
        #expect(count == 1000)
        #expect(reader.bytesRead == Int64(text.utf8.count))
    }

    // MARK: - Dialects

    @Test(arguments: [";", "\t", "|"])
    func testOtherDelimiters(delimiter: String) throws {
        let fixture = try CSVFixture()
        let text =
            ["a", "b,c"].joined(separator: delimiter) + "\n"
            + ["1", "\"2\(delimiter)3\""].joined(separator: delimiter) + "\n"
        let dialect = CSVDialect(delimiter: UInt8(ascii: Unicode.Scalar(delimiter) ?? ","))
        let reader = try fixture.reader(text, dialect: dialect)
        #expect(reader.header == ["a", "b,c"])
        #expect(reader.events() == [.record(["1", "\"2\(delimiter)3\""])])
    }

    @Test func testGuessesTheDelimiterFromTheFirstLineWhenNoDialectIsGiven() throws {
        let fixture = try CSVFixture()
        for (text, delimiter) in [
            ("name;city\nAda;London\n", ";"), ("name\tcity\nAda\tLondon\n", "\t"),
            ("name|city\nAda|London\n", "|"), ("name,city\nAda,London\n", ","),
            ("\n\n\"a,b,c\";d\n1;2\n", ";"),
        ] {
            for bufferSize in [1, 3, 1 << 20] {
                let reader = try fixture.reader(text, dialect: nil, bufferSize: bufferSize)
                #expect(reader.dialect.delimiter == UInt8(ascii: Unicode.Scalar(delimiter) ?? ","))
                #expect(reader.dialect.hasHeader)
                #expect(reader.events().count == 1)
            }
        }
    }

    @Test func testGuessesOnlyTheDelimiterWhenTheRestOfTheDialectIsGiven() throws {
        let fixture = try CSVFixture()
        let noHeader = try CSVReader(
            path: fixture.write("a;b;\"c\n1;2;3\n"),
            guessingDelimiterWith: CSVDialect(quote: nil, hasHeader: false))
        #expect(
            noHeader.dialect
                == CSVDialect(delimiter: UInt8(ascii: ";"), quote: nil, hasHeader: false))
        #expect(noHeader.header == nil)
        #expect(noHeader.events() == [.record(["a", "b", "\"c"]), .record(["1", "2", "3"])])
        let singleQuotes = try CSVReader(
            path: fixture.write("'x;y;z',w\n'1',2\n"),
            guessingDelimiterWith: CSVDialect(quote: UInt8(ascii: "'")))
        #expect(singleQuotes.dialect.delimiter == UInt8(ascii: ","))
        #expect(singleQuotes.header == ["x;y;z", "w"])
        #expect(singleQuotes.events() == [.record(["\"1\"", "2"])])
        // A quote the guess falls back to cannot be the delimiter too.
        #expect(throws: ImportError.self) {
            try CSVReader(
                path: fixture.write("abc\n"), guessingDelimiterWith: CSVDialect(quote: 0x2C))
        }
    }

    @Test func testUTF8ByteOrderMarkIsSkippedBeforeTheHeader() throws {
        let fixture = try CSVFixture()
        let path = try fixture.write([0xEF, 0xBB, 0xBF] + Array("id,name\n1,Ada\n".utf8))
        let reader = try CSVReader(path: path)
        #expect(reader.header == ["id", "name"])
        #expect(try reader.nextRecord())
        #expect(reader.renderedFields() == ["1", "Ada"])
        #expect(reader.recordPosition.byteOffset == 11)
        #expect(reader.position(ofField: 1).byteOffset == 13)
    }

    @Test(arguments: [false, true])
    func testUTF16WithByteOrderMark(bigEndian: Bool) throws {
        let fixture = try CSVFixture()
        let text = "name,city\r\nZoë,\"Zürich, CH\"\n😀,x\n"
        let path = try fixture.write(utf16Bytes(text, bigEndian: bigEndian))
        let reader = try CSVReader(path: path, dialect: .csv)
        #expect(reader.header == ["name", "city"])
        #expect(try reader.nextRecord())
        #expect(reader.renderedFields() == ["Zoë", "\"Zürich, CH\""])
        #expect(reader.recordPosition.byteOffset == 24)
        #expect(try reader.nextRecord())
        #expect(reader.renderedFields() == ["😀", "x"])
        #expect(reader.recordPosition.byteOffset == 58)
        let second = reader.position(ofField: 1)
        #expect((second.line, second.column, second.byteOffset) == (3, 3, 64))
        #expect(reader.recordText() == Data("😀,x".utf8))
        #expect(try reader.nextRecord() == false)
    }

    @Test func testLatin1ByOption() throws {
        let fixture = try CSVFixture()
        let bytes: [UInt8] =
            Array("name,n\nJos".utf8) + [0xE9] + Array(",1\nM".utf8) + [0xFC]
            + Array("ller,\"".utf8) + [0xA9, 0xFF] + Array("\"\n".utf8)
        let path = try fixture.write(bytes)
        let reader = try CSVReader(path: path, dialect: CSVDialect(encoding: .latin1))
        #expect(reader.header == ["name", "n"])
        #expect(reader.events() == [.record(["José", "1"]), .record(["Müller", "\"©ÿ\""])])
        let again = try CSVReader(path: path, dialect: CSVDialect(encoding: .latin1))
        _ = try again.nextRecord()
        _ = try again.nextRecord()
        #expect(again.recordPosition.byteOffset == 14)
        #expect(again.position(ofField: 1).byteOffset == 21)
        #expect(again.position(ofField: 1).column == 8)
    }

    /// `contacts.txt`: `;` between fields, quotes as plain text, no header.
    @Test func testTxtLinesDialect() throws {
        let fixture = try CSVFixture()
        let reader = try fixture.reader(
            "Giulia;Dubois;\"giu0\";x\nKenji;\"Smith;ken1;y\n",
            dialect: .lines(separatedBy: UInt8(ascii: ";")))
        #expect(reader.header == nil)
        #expect(try reader.nextRecord())
        #expect(
            (0..<4).map { String(decoding: reader.field($0), as: UTF8.self) }
                == ["Giulia", "Dubois", "\"giu0\"", "x"])
        #expect((0..<4).allSatisfy { !reader.isQuoted($0) })
        #expect(try reader.nextRecord())
        #expect(reader.renderedFields() == ["Kenji", "\"Smith", "ken1", "y"])
    }

    @Test func testWholeLineDialect() throws {
        let fixture = try CSVFixture()
        let reader = try fixture.reader(
            "first line, with a comma\n\"quoted\";x\tand a tab\n\nlast", dialect: .wholeLine)
        #expect(reader.header == nil)
        #expect(
            reader.events() == [
                .record(["first line, with a comma"]), .record(["\"quoted\";x\tand a tab"]),
                .record(["last"]),
            ])
    }
}
