import Foundation
import Testing

@testable import Strata
@testable import StrataCore
@testable import StrataQuery

/// The expression language: syntax errors and type errors with their
/// columns, and every function's result, nil handling included.
struct ExpressionTests {
    static let entities = #"""
        {
          "Item": {
            "attributes": {
              "text": { "type": "string", "optional": true },
              "count": { "type": "integer32", "optional": true },
              "price": { "type": "double", "optional": true },
              "when": { "type": "date", "optional": true },
              "flag": { "type": "boolean", "optional": true }
            },
            "relationships": {
              "owner": { "destination": "Owner", "inverse": "items", "optional": true },
              "tags": { "destination": "Owner", "inverse": "tagged", "toMany": true,
                        "optional": true }
            }
          },
          "Owner": {
            "attributes": { "name": { "type": "string", "optional": true } },
            "relationships": {
              "items": { "destination": "Item", "inverse": "owner", "toMany": true,
                         "optional": true },
              "tagged": { "destination": "Item", "inverse": "tags", "toMany": true,
                          "optional": true }
            }
          }
        }
        """#

    private func checked(_ text: String) throws -> (ExpressionNode, ExpressionType) {
        let model = try MappingTestSupport.model("Test", 1, Self.entities)
        let node = try ExpressionParser.parse(text)
        var checker = ExpressionChecker(model: model, entity: "Item")
        return (node, try checker.type(of: node))
    }

    private func error(_ text: String) -> ExpressionError? {
        do {
            _ = try checked(text)
            return nil
        } catch let error as ExpressionError {
            return error
        } catch {
            return nil
        }
    }

    private func value(
        _ text: String, _ values: [String: MappingValue] = [:]
    ) throws -> MappingValue {
        try ExpressionEvaluator().evaluate(try checked(text).0, values)
    }

    /// Issue 15: `matches` with a pattern that backtracks without end is
    /// an error at the call's column naming the pattern, not a hang or an
    /// empty list.
    @Test func testMatchesThatHitsTheLimitIsAnErrorNamingThePattern() throws {
        #expect(try value("matches(text, '(a+)+$')", ["text": .string("aaaa")]) == .list(["aaaa"]))
        let error = try #require(
            throws: ExpressionError.self,
            performing: {
                try RegexLimits.$current.withValue(tightRegexLimits) {
                    _ = try value("matches(text, '(a+)+$')", ["text": .string(catastrophicText)])
                }
            })
        #expect(error.column == 1)
        #expect(
            error.message.hasPrefix("regular expression \"(a+)+$\": the match hit its time limit"))
    }

    @Test func testSyntaxErrorsPointAtTheirColumn() {
        let cases: [(String, Int, String)] = [
            ("1 +", 4, "expected a value"),
            ("trim(text", 10, "expected ')'"),
            ("'abc", 1, "unterminated string"),
            ("text = 'a'", 6, "compare with '=='"),
            ("count < 1 < 2", 11, "do not chain"),
            ("owner.", 7, "expected a property name"),
            ("text #", 6, "unexpected character '#'"),
            ("", 1, "empty expression"),
            ("(1 + 2", 7, "to close the '(' at column 1"),
            ("'a\\q'", 3, "unknown escape"),
        ]
        for (text, column, message) in cases {
            let found = error(text)
            #expect(found?.column == column, "\(text)")
            #expect(found?.message.contains(message) == true, "\(text): \(found?.message ?? "")")
        }
    }

    @Test func testTypeErrorsPointAtTheirColumn() {
        let cases: [(String, Int, String)] = [
            ("text + count", 6, "convert with string(…)"),
            ("frstLine(text)", 1, "unknown function 'frstLine'"),
            ("owner", 1, "is a relationship; name an attribute of Owner"),
            ("owner.nme", 1, "Owner has no property 'nme'"),
            ("tags.name", 1, "is a to-many relationship"),
            ("text.length", 1, "only to-one relationships can be followed"),
            ("trim(count)", 6, "argument 1 of trim takes a string, not an integer"),
            ("matches(text, text)", 15, "must be a string literal"),
            ("matches(text, '(')", 15, "does not compile at column 1 of the pattern"),
            ("number(text, 'abc')", 14, "names no separators"),
            ("trim(text, text)", 1, "trim takes 1 argument, found 2"),
            ("coalesce(text, 1)", 16, "needs values of one type"),
            ("if(text, 1, 2)", 4, "argument 1 of if takes a boolean"),
            ("flag && count", 6, "'&&' takes a boolean"),
            ("when < text", 6, "compare numbers, strings or dates"),
            ("split(text, ',') == text", 18, "cannot combine"),
        ]
        for (text, column, message) in cases {
            let found = error(text)
            #expect(found?.column == column, "\(text): \(String(describing: found))")
            #expect(found?.message.contains(message) == true, "\(text): \(found?.message ?? "")")
        }
    }

    @Test func testTypesOfResults() throws {
        let cases: [(String, ExpressionType)] = [
            ("count + 1", .integer), ("count / 2", .real), ("price * count", .real),
            ("when + 60", .date), ("when - when", .real), ("text ?? 'x'", .string),
            ("split(text, ',')", .list), ("round(price)", .integer), ("nil", .null),
            ("owner.name", .string), ("count > 2 && flag", .boolean),
            ("coalesce(count, price)", .real),
        ]
        for (text, type) in cases {
            #expect(try checked(text).1 == type, "\(text)")
        }
    }

    @Test func testStringFunctions() throws {
        let text = MappingValue.string("  First line  \n\nsecond, third ,,fourth\n")
        let values = ["text": text]
        let cases: [(String, MappingValue)] = [
            ("firstLine(text)", .string("First line")),
            ("firstLine('\n \n')", .null),
            ("trim('  a b ')", .string("a b")),
            ("lower('ÀbC')", .string("àbc")),
            ("upper('straße')", .string("STRASSE")),
            ("length('héllo')", .integer(5)),
            ("prefix('abcdef', 3)", .string("abc")),
            ("prefix('ab', 5)", .string("ab")),
            ("before('Paris: day one', ':')", .string("Paris")),
            ("before('Paris', ':')", .string("Paris")),
            ("after('Paris: day one', ': ')", .string("day one")),
            ("after('Paris', ':')", .null),
            ("replace('a-b-c', '-', '+')", .string("a+b+c")),
            ("contains('Hello', 'ell')", .boolean(true)),
            ("contains(split('a,b', ','), 'b')", .boolean(true)),
            ("split(text, ',')", .list(["First line  \n\nsecond", "third", "fourth"])),
            ("join(split('a, b ,c', ','), '|')", .string("a|b|c")),
            ("first(split('Ada Lovelace', ' '))", .string("Ada")),
            ("last(split('Ada Lovelace', ' '))", .string("Lovelace")),
            ("first(split('', ','))", .null),
            ("count(split('a,,b', ','))", .integer(2)),
            ("matches('#Trip and #food, #x1', '#(\\\\w+)')", .list(["Trip", "food", "x1"])),
            ("matches('a1 b22', '[0-9]+')", .list(["1", "22"])),
            ("concatenate('a', nil, 1, 2.5, true)", .string("a12.5true")),
            ("concatenate(nil, nil)", .null),
            ("'a' + 'b'", .string("ab")),
            ("'a' + nil", .null),
            ("string(42)", .string("42")),
            ("string(2.0)", .string("2")),
        ]
        for (expression, expected) in cases {
            #expect(try value(expression, values) == expected, "\(expression)")
        }
    }

    @Test func testNumberAndDateFunctions() throws {
        let cases: [(String, MappingValue)] = [
            ("number('20 min')", .real(20)),
            ("number('  -1.5h')", .real(-1.5)),
            ("number('.5')", .real(0.5)),
            ("number('about 20')", .null),
            ("number('1,234.5 g', '#,##0.0')", .real(1234.5)),
            ("number('1.234,5 g', '#.##0,0')", .real(1234.5)),
            ("number('1,5', '0,0')", .real(1.5)),
            ("number('12,345', '#,##0')", .real(12345)),
            ("number(3)", .real(3)),
            ("integer('42 pages')", .integer(42)),
            ("integer(-2.7)", .integer(-2)),
            ("round(2.5)", .integer(3)),
            ("round(-2.5)", .integer(-3)),
            ("abs(-4)", .integer(4)),
            ("7 / 2", .real(3.5)),
            ("1 / 0", .null),
            ("2 * 3 + 1", .integer(7)),
            ("2 * (3 + 1)", .integer(8)),
            ("-count", .integer(-3)),
            ("count * 2 - 1", .integer(5)),
            ("date('2024-02-29')", .date(730_857_600)),
            ("date('29.02.2024', 'dd.MM.yyyy')", .date(730_857_600)),
            ("date('31.02.2024', 'dd.MM.yyyy')", .null),
            ("date('2024-02-29T12:00:00Z')", .date(730_900_800)),
            ("string(date('2024-02-29'), 'd MMMM yyyy')", .string("29 February 2024")),
            ("date('2024-02-29') + 86400", .date(730_944_000)),
            ("date('2024-03-01') - date('2024-02-29')", .real(86_400)),
            ("string(date('2024-02-29'))", .string("2024-02-29T00:00:00Z")),
        ]
        for (expression, expected) in cases {
            #expect(try value(expression, ["count": .integer(3)]) == expected, "\(expression)")
        }
    }

    @Test func testNilPropagatesAndConditionsTreatItAsFalse() throws {
        let cases: [(String, MappingValue)] = [
            ("count + 1", .null), ("trim(text)", .null), ("text ?? 'none'", .string("none")),
            ("coalesce(text, owner.name, 'x')", .string("x")),
            ("if(count > 1, 'many', 'few')", .string("few")),
            ("count == nil", .boolean(true)), ("count != nil", .boolean(false)),
            ("flag || true", .boolean(true)), ("flag && true", .boolean(false)),
            ("!flag", .null), ("number(text)", .null),
        ]
        for (expression, expected) in cases {
            #expect(try value(expression) == expected, "\(expression)")
        }
        #expect(try value("owner.name", ["owner.name": .string("Ada")]) == .string("Ada"))
    }

    @Test func testIntegerOverflowIsAnError() throws {
        #expect(throws: ExpressionError.self) {
            try value("9223372036854775807 + 1")
        }
        #expect(throws: ExpressionError.self) {
            try value("integer(1e30)")
        }
    }
}
