import Foundation
import Testing

@testable import Strata
@testable import StrataQuery

/// The lexer's predicate dialect: tokens and columns of plain ASCII
/// predicates (read as bytes) and of predicates with other characters (read
/// as characters) agree.
struct PredicateLexerTests {
    private func tokens(_ text: String) throws -> [Token.Kind] {
        try PredicateParser.tokens(of: text).map(\.kind)
    }

    private func columns(_ text: String) throws -> [Int] {
        try PredicateParser.tokens(of: text).map(\.column)
    }

    @Test func testASCIITokensAndColumns() throws {
        let text = "date == %@ AND (n >= -1.5e3 OR #size <> 0x1F) && $X.@count != 'a\\'b'"
        #expect(
            try tokens(text) == [
                .name("date", escaped: false), .symbol("=="), .specifier("@"),
                .name("AND", escaped: false), .punctuation("("), .name("n", escaped: false),
                .symbol(">="), .real(-1500), .name("OR", escaped: false),
                .name("size", escaped: true), .symbol("<>"), .integer(31), .punctuation(")"),
                .symbol("&&"), .variable("X"), .punctuation("."), .aggregate("count"),
                .symbol("!="), .string("a'b"), .end,
            ])
        #expect(
            try columns(text) == [
                1, 6, 9, 12, 16, 17, 19, 22, 29, 32, 38, 41, 45, 47, 50, 52, 53, 60, 63, 69,
            ])
    }

    @Test func testOtherCharactersCountAsOneColumnEach() throws {
        let text = "name == 'Straße' AND\r\n größe > 0x1F"
        #expect(
            try tokens(text) == [
                .name("name", escaped: false), .symbol("=="), .string("Straße"),
                .name("AND", escaped: false), .name("größe", escaped: false), .symbol(">"),
                .integer(31), .end,
            ])
        #expect(try columns(text) == [1, 6, 9, 18, 23, 29, 31, 35])
        // e + COMBINING ACUTE ACCENT is one character, and part of the name.
        #expect(
            try tokens("e\u{301}x == 1") == [
                .name("e\u{301}x", escaped: false), .symbol("=="), .integer(1), .end,
            ])
        #expect(try columns("e\u{301}x == 1") == [1, 4, 7, 8])
        #expect(
            try tokens("t == 'a\r\nb\\u00e9'") == [
                .name("t", escaped: false), .symbol("=="), .string("a\r\nbé"), .end,
            ])
        #expect(
            try tokens("\u{00A0}x\u{2003}==\u{3000}%K") == [
                .name("x", escaped: false), .symbol("=="), .specifier("K"), .end,
            ])
    }

    @Test func testErrorsPointAtTheSameColumnsWithOtherCharacters() throws {
        for (text, column) in [
            ("größe & 1", 7), ("größe == 'offen", 10), ("ö == %q", 6), ("ö == 12abc", 8),
            ("ö == 0x", 6), ("ö == '\\u12'", 7), ("ö == 'a\\z'", 8), ("ö == ¿", 6),
            ("size & 1", 6), ("size == 'open", 9), ("s == %q", 6), ("s == 12abc", 8),
        ] {
            let error = #expect(throws: PredicateSyntaxError.self) {
                _ = try PredicateParser.tokens(of: text)
            }
            #expect(error?.column == column, "\(text)")
        }
    }
}
