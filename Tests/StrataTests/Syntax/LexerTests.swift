import Foundation
import Testing

@testable import Strata
@testable import StrataQuery

/// The one lexer of predicates and mapping expressions: where the two
/// grammars agree a text splits the same in both dialects, and where they
/// differ each dialect keeps its own tokens and errors.
struct LexerTests {
    private func kinds(_ text: String, _ dialect: Lexer.Dialect) throws -> [Token.Kind] {
        try Lexer.tokens(of: text, dialect: dialect).map(\.kind)
    }

    private func columns(_ text: String, _ dialect: Lexer.Dialect) throws -> [Int] {
        try Lexer.tokens(of: text, dialect: dialect).map(\.column)
    }

    /// The error `text` throws in `dialect`, or nil when it splits.
    private func error(_ text: String, _ dialect: Lexer.Dialect) -> LexerError? {
        do {
            _ = try Lexer.tokens(of: text, dialect: dialect)
            return nil
        } catch {
            return error
        }
    }

    @Test func testTheSharedGrammarSplitsTheSameInBothDialects() throws {
        let texts = [
            "owner.name == 'Ada' && (count >= 2 || !flag)",
            "a != \"x\\ty\" || b <= 1.5e3 && c > 0 && d < 2",
            "größe <= 1.5 && Straße != 'Zürich'",
            "trim(text , 'a\r\nb')",
        ]
        for text in texts {
            let predicate = try kinds(text, .predicate)
            #expect(predicate == (try kinds(text, .mapping)), "\(text)")
            #expect(try columns(text, .predicate) == (try columns(text, .mapping)), "\(text)")
        }
        #expect(
            try kinds("owner.name == 'Ada'", .mapping) == [
                .name("owner", escaped: false), .punctuation("."), .name("name", escaped: false),
                .symbol("=="), .string("Ada"), .end,
            ])
        // Non-ASCII text is read by characters: one column each.
        #expect(
            try columns("größe <= 1.5 && Straße != 'Zürich'", .mapping) == [
                1, 7, 10, 14, 17, 24, 27, 35,
            ])
    }

    @Test func testEachDialectEscapesNamesItsOwnWay() throws {
        #expect(try kinds("#in", .predicate) == [.name("in", escaped: true), .end])
        #expect(
            try kinds("`Culmen Length (mm)` * 2", .mapping) == [
                .name("Culmen Length (mm)", escaped: true), .symbol("*"), .integer(2), .end,
            ])
        #expect(
            error("#in", .mapping)
                == LexerError(
                    column: 1,
                    message:
                        "unexpected character '#'; expected a value, a key path, a function call "
                        + "or an operator"))
        #expect(
            error("`a`", .predicate) == LexerError(column: 1, message: "unexpected character '`'"))
        #expect(
            error("`a b", .mapping)
                == LexerError(column: 1, message: "unterminated name: expected ` before the end"))
        #expect(
            error("x + ``", .mapping)
                == LexerError(column: 5, message: "empty name between backquotes"))
        // A name between backquotes ends at the line.
        #expect(error("`a\nb`", .mapping)?.column == 1)
        // Other digits continue a predicate's name only.
        #expect(try kinds("x\u{661}", .predicate) == [.name("x\u{661}", escaped: false), .end])
        #expect(error("x\u{661}", .mapping)?.column == 2)
        #expect(Lexer.isName("x\u{661}", in: .predicate))
        #expect(!Lexer.isName("x\u{661}", in: .mapping))
        #expect(Lexer.isName("_größe2", in: .mapping))
        #expect(!Lexer.isName("2x", in: .predicate))
        #expect(!ExpressionParser.isPlainName("nil"))
        #expect(ExpressionParser.isPlainName("nils"))
    }

    @Test func testSignsFractionsAndHexadecimalAreNumbersInPredicatesOnly() throws {
        #expect(
            try kinds("-1 +.5 0x1F", .predicate) == [.integer(-1), .real(0.5), .integer(31), .end])
        #expect(
            try kinds("-1 +.5 0x1F", .mapping) == [
                .symbol("-"), .integer(1), .symbol("+"), .punctuation("."), .integer(5),
                .integer(0), .name("x1F", escaped: false), .end,
            ])
        #expect(try kinds("99999999999999999999", .mapping) == [.real(1e20), .end])
        #expect(
            error("99999999999999999999", .predicate)
                == LexerError(column: 1, message: "integer literal does not fit in 64 bits"))
        #expect(
            error("1e999", .mapping)
                == LexerError(column: 1, message: "number 1e999 is out of range"))
        #expect(try kinds("12abc", .mapping) == [.integer(12), .name("abc", escaped: false), .end])
        #expect(error("12abc", .predicate)?.column == 3)
    }

    @Test func testEachDialectHasItsOwnOperators() throws {
        #expect(
            try kinds("= =< => <> %@ $X a.@count {1} [c]", .predicate) == [
                .symbol("="), .symbol("=<"), .symbol("=>"), .symbol("<>"), .specifier("@"),
                .variable("X"), .name("a", escaped: false), .punctuation("."),
                .aggregate("count"), .punctuation("{"), .integer(1), .punctuation("}"),
                .punctuation("["), .name("c", escaped: false), .punctuation("]"), .end,
            ])
        #expect(
            try kinds("a ?? b + c - d * e / f <> g", .mapping) == [
                .name("a", escaped: false), .symbol("??"), .name("b", escaped: false),
                .symbol("+"), .name("c", escaped: false), .symbol("-"),
                .name("d", escaped: false), .symbol("*"), .name("e", escaped: false),
                .symbol("/"), .name("f", escaped: false), .symbol("<"), .symbol(">"),
                .name("g", escaped: false), .end,
            ])
        #expect(
            error("a = b", .mapping)
                == LexerError(column: 3, message: "unexpected '='; compare with '=='"))
        #expect(error("a ?? b", .predicate)?.message == "unexpected character '?'")
        #expect(
            error("a & b", .predicate)
                == LexerError(column: 3, message: "expected '&&'; a single '&' is not an operator"))
        #expect(error("a | b", .mapping)?.message.hasPrefix("unexpected character '|';") == true)
        for text in ["%@", "$X", "@count", "{", "]"] {
            #expect(error(text, .mapping)?.column == 1, "\(text)")
        }
    }

    @Test func testStringEscapesAndTheirErrors() throws {
        #expect(try kinds(#"'\0\u00e9'"#, .predicate) == [.string("\0é"), .end])
        #expect(
            error(#"x + '\u00e9'"#, .mapping)
                == LexerError(
                    column: 6, message: #"unknown escape '\u'; expected \n \t \r \\ \" or \'"#))
        #expect(
            error("'abc", .mapping)
                == LexerError(column: 1, message: "unterminated string: expected ' before the end"))
        #expect(
            error("\"abc", .predicate)
                == LexerError(column: 1, message: "unterminated string: expected a closing \""))
        // The column of the escape counts characters, not bytes.
        #expect(error(#"'é\q'"#, .mapping)?.column == 3)
        #expect(error(#"'é\q'"#, .predicate)?.column == 3)
    }
}
