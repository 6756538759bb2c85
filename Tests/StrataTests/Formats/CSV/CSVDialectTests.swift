import Testing

@testable import Strata
@testable import StrataFormats

struct CSVDialectTests {
    private func guessed(_ line: String) -> String {
        let dialect = CSVDialect.guess(headerLine: line)
        return dialect.delimiter.map { String(UnicodeScalar($0)) } ?? "none"
    }

    @Test func testGuessTakesTheMostFrequentDelimiter() {
        #expect(guessed("a,b,c") == ",")
        #expect(guessed("a;b;c,d") == ";")
        #expect(guessed("a\tb\tc;d") == "\t")
        #expect(guessed("a|b|c") == "|")
    }

    @Test func testGuessOnATieOrNothingTakesTheComma() {
        #expect(guessed("a,b;c") == ",")
        #expect(guessed("a;b|c\td,e") == ",")
        #expect(guessed("single") == ",")
        #expect(guessed("") == ",")
        // Without a comma in the tie, the earlier in `, ; tab |`.
        #expect(guessed("a|b;c") == ";")
    }

    @Test func testGuessCountsOutsideQuotesAndOnTheFirstLineOnly() {
        #expect(guessed("\"a,b,c\";d") == ";")
        #expect(guessed("a;b\nc,d,e,f") == ";")
        #expect(guessed("\"x\ny,z,w\";v") == ";")
        #expect(guessed("a;b\rc,d,e") == ";")
    }

    @Test func testGuessGivesAQuotedDialectWithAHeader() {
        let dialect = CSVDialect.guess(headerLine: Array("a;b".utf8))
        #expect(dialect == CSVDialect(delimiter: UInt8(ascii: ";")))
        #expect(dialect.quote == UInt8(ascii: "\""))
        #expect(dialect.hasHeader)
        #expect(dialect.encoding == .utf8)
    }

    @Test func testNamedDialects() {
        #expect(CSVDialect.csv.delimiter == UInt8(ascii: ","))
        #expect(CSVDialect.tsv.delimiter == UInt8(ascii: "\t"))
        #expect(CSVDialect.wholeLine.delimiter == nil)
        #expect(CSVDialect.wholeLine.quote == nil)
        #expect(!CSVDialect.wholeLine.hasHeader)
        let lines = CSVDialect.lines(separatedBy: UInt8(ascii: ";"), encoding: .latin1)
        #expect(
            lines
                == CSVDialect(
                    delimiter: UInt8(ascii: ";"), quote: nil, hasHeader: false, encoding: .latin1))
    }
}
