import Foundation
import Testing

@testable import Strata
@testable import StrataQuery

/// The format language: what each construct parses to, and where and why a
/// bad one fails.
struct PredicateParserTests {
    private func comparison(_ format: String, _ arguments: [PredicateArgument] = []) throws
        -> Comparison?
    {
        if case .comparison(let comparison) = try FetchPredicate(format, arguments: arguments) {
            return comparison
        }
        return nil
    }

    /// The error a format throws, or nil when it parses.
    private func syntaxError(
        _ format: String, _ arguments: [PredicateArgument] = []
    ) -> PredicateSyntaxError? {
        do {
            _ = try FetchPredicate(format, arguments: arguments)
            return nil
        } catch let error as PredicateSyntaxError {
            return error
        } catch {
            return nil
        }
    }

    // MARK: - Structure

    @Test func testOperatorsAndTheirSpellings() throws {
        let spellings: [(String, ComparisonOperator)] = [
            ("=", .equal), ("==", .equal), ("!=", .notEqual), ("<>", .notEqual), ("<", .less),
            ("<=", .lessOrEqual), ("=<", .lessOrEqual), (">", .greater),
            (">=", .greaterOrEqual), ("=>", .greaterOrEqual), ("CONTAINS", .contains),
            ("beginswith", .beginsWith), ("EndsWith", .endsWith), ("LIKE", .like),
            ("MATCHES", .matches), ("IN", .in),
        ]
        for (spelling, op) in spellings {
            let parsed = try comparison("age \(spelling) 3")
            #expect(parsed?.op == op, "\(spelling)")
            #expect(parsed?.left == .keyPath(["age"], column: 1))
            #expect(parsed?.right == .value(.integer(3), column: 6 + spelling.count))
        }
    }

    @Test func testPrecedenceOfNotAndOr() throws {
        let parsed = try FetchPredicate("a = 1 OR NOT b = 2 && c = 3")
        let a = FetchPredicate.comparison(
            Comparison(
                left: .keyPath(["a"], column: 1), op: .equal, right: .value(.integer(1), column: 5))
        )
        let b = FetchPredicate.comparison(
            Comparison(
                left: .keyPath(["b"], column: 14), op: .equal,
                right: .value(.integer(2), column: 18),
                column: 14))
        let c = FetchPredicate.comparison(
            Comparison(
                left: .keyPath(["c"], column: 23), op: .equal,
                right: .value(.integer(3), column: 27),
                column: 23))
        #expect(parsed == .or([a, .and([.not(b), c])]))
        #expect(
            try FetchPredicate("(TRUEPREDICATE || falsepredicate)")
                == .or([.constant(true), .constant(false)]))
    }

    @Test func testLiterals() throws {
        #expect(try comparison("x = nil")?.right == .value(.null, column: 5))
        #expect(try comparison("x = NULL")?.right == .value(.null, column: 5))
        #expect(try comparison("x = yes")?.right == .value(.boolean(true), column: 5))
        #expect(try comparison("x = FALSE")?.right == .value(.boolean(false), column: 5))
        #expect(try comparison("x = -12")?.right == .value(.integer(-12), column: 5))
        #expect(try comparison("x = 1.5e2")?.right == .value(.real(150), column: 5))
        #expect(try comparison("x = 0x1F")?.right == .value(.integer(31), column: 5))
        #expect(try comparison(#"x = 'it\'s'"#)?.right == .value(.string("it's"), column: 5))
        #expect(
            try comparison(#"x = "a\"b\n\u00e9""#)?.right == .value(.string("a\"b\né"), column: 5))
        #expect(
            try comparison("x IN {1, 'two', nil}")?.right
                == .list([
                    .value(.integer(1), column: 7), .value(.string("two"), column: 10),
                    .value(.null, column: 17),
                ]))
    }

    @Test func testKeyPathsQuantifiersAndCount() throws {
        let any = try comparison("ANY media.type = 'image'")
        #expect(any?.quantifier == .any)
        #expect(any?.left == .keyPath(["media", "type"], column: 5))
        #expect(try comparison("some a.b = 1")?.quantifier == .any)
        #expect(try comparison("ALL a.b = 1")?.quantifier == .all)
        #expect(try comparison("NONE a.b = 1")?.quantifier == Quantifier.none)
        #expect(try comparison("media.@count > 0")?.left == .count(["media"], column: 1))
        #expect(try comparison("#in = 1")?.left == .keyPath(["in"], column: 1))
        #expect(try comparison("a.like = 1")?.left == .keyPath(["a", "like"], column: 1))
    }

    @Test func testOptions() throws {
        #expect(try comparison("t CONTAINS[c] 'a'")?.options == .caseInsensitive)
        #expect(try comparison("t LIKE[d] 'a'")?.options == .diacriticInsensitive)
        #expect(
            try comparison("t ==[cd] 'a'")?.options == [.caseInsensitive, .diacriticInsensitive])
        #expect(try comparison("t BEGINSWITH 'a'")?.options == [])
    }

    @Test func testValueOnTheLeftIsMirrored() throws {
        let mirrored = try comparison("3 < age")
        #expect(mirrored?.op == .greater)
        #expect(mirrored?.left == .keyPath(["age"], column: 5))
        #expect(try comparison("3 >= age")?.op == .lessOrEqual)
        let membership = try comparison("%@ IN tags", [.string("x")])
        #expect(membership?.op == .contains)
        #expect(membership?.left == .keyPath(["tags"], column: 7))
        #expect(try comparison("{1, 2} CONTAINS age")?.op == .in)
        // A string operator has no mirror: the tree keeps the value on the left.
        #expect(
            try comparison("'abc' BEGINSWITH name")?.left == .value(.string("abc"), column: 1))
    }

    @Test func testEverySubstitutionKind() throws {
        #expect(try comparison("a = %@", [.string("s")])?.right == .value(.string("s"), column: 5))
        #expect(try comparison("a = %d", [.integer(4)])?.right == .value(.integer(4), column: 5))
        #expect(try comparison("a = %i", [.integer(4)])?.right == .value(.integer(4), column: 5))
        #expect(try comparison("a = %ld", [.integer(4)])?.right == .value(.integer(4), column: 5))
        #expect(try comparison("a = %f", [.real(0.5)])?.right == .value(.real(0.5), column: 5))
        #expect(try comparison("a = %f", [.integer(2)])?.right == .value(.real(2), column: 5))
        #expect(try comparison("a = %s", [.string("s")])?.right == .value(.string("s"), column: 5))
        #expect(
            try comparison("%K.%K = 1", [.keyPath("owner"), .keyPath("name")])?.left
                == .keyPath(["owner", "name"], column: 1))
        #expect(
            try comparison("%K > 1", [.keyPath("pets.@count")])?.left
                == .count(["pets"], column: 1))
        #expect(
            try comparison("a BETWEEN %@", [.array([.integer(1), .integer(2)])])?.right
                == .value(.array([.integer(1), .integer(2)]), column: 11))
        let variable = try FetchPredicate("a = $X")
        #expect(variable.variableNames == ["X"])
        let bound = try variable.substituting(["X": .integer(5)])
        #expect(bound == (try FetchPredicate("a = 5")))
        #expect(try FetchPredicate("a = $X", variables: ["X": .integer(5)]) == bound)
        #expect(throws: Strata.FetchPredicateError.self) { try variable.substituting([:]) }
    }

    @Test func testFormatRoundTrips() throws {
        let format = #"(ANY media.type ==[cd] "image" OR NOT #in.@count > 2) AND x IN {1, nil}"#
        let parsed = try FetchPredicate(format)
        #expect(try FetchPredicate(parsed.description).description == parsed.description)
        #expect(
            parsed.description
                == #"(ANY media.type ==[cd] "image" OR NOT #in.@count > 2) AND x IN {1, nil}"#)
    }

    // MARK: - Errors

    @Test func testSyntaxErrorsPointAtTheColumnAndSayWhatWasExpected() {
        let cases:
            [(format: String, arguments: [PredicateArgument], column: Int, message: String)] =
                [
                    (
                        "age >", [], 6,
                        "expected a key path or value after '>', found the end of the predicate"
                    ),
                    (
                        "age 3", [], 5,
                        "expected an operator (=, !=, <, <=, >, >=, BETWEEN, IN, CONTAINS, BEGINSWITH, ENDSWITH, LIKE or MATCHES), found '3'"
                    ),
                    (
                        "(a = 1", [], 7,
                        "expected ')' to close the '(' at column 1, found the end of the predicate"
                    ),
                    ("a = 1)", [], 6, "expected AND, OR or the end of the predicate, found ')'"),
                    ("a = 'abc", [], 5, "unterminated string: expected a closing '"),
                    (
                        #"a = 'x\q'"#, [], 7,
                        #"unknown escape '\q'; expected \\, \', \", \n, \t, \r, \0 or \uXXXX"#
                    ),
                    ("a & b", [], 3, "expected '&&'; a single '&' is not an operator"),
                    ("a = ~", [], 5, "unexpected character '~'"),
                    ("a CONTAINS[x] 'b'", [], 12, "expected c, d or cd inside '[…]', found 'x'"),
                    (
                        "a CONTAINS[c 'b'", [], 14,
                        "expected ']' after the options, found a quoted string"
                    ),
                    (
                        "a BETWEEN {1}", [], 11,
                        "expected '{low, high}' after BETWEEN, with two values"
                    ),
                    (
                        "a IN {1, 2", [], 11,
                        "expected ',' or '}' to close the '{' at column 6, found the end of the predicate"
                    ),
                    (
                        "AND = 1", [], 1,
                        "expected a key path or value, found the keyword 'AND' (write #AND for a key of that name)"
                    ),
                    (
                        "a = %x", [], 5,
                        "unknown format specifier; expected %@, %K, %d, %i, %ld, %f or %s"
                    ),
                    ("a.@sum > 1", [], 3, "expected @count; other aggregates are not supported"),
                    ("a. = 1", [], 4, "expected a key name after '.', found '='"),
                    ("a = 12abc", [], 7, "expected an operator or a space after the number"),
                    ("a = 99999999999999999999", [], 5, "integer literal does not fit in 64 bits"),
                    ("a = $", [], 6, "expected a variable name after '$'"),
                    (
                        "a = %@ AND b = %@", [.string("x")], 16,
                        "too few arguments: %@ at column 16 has no argument (1 given)"
                    ),
                    (
                        "a = %@", [.string("x"), .string("y")], 7,
                        "too many arguments: the format uses 1, 2 were given"
                    ),
                    ("a = %d", [.string("x")], 5, "%d expects an integer argument, got a string"),
                    (
                        "a = %f", [.string("x")], 5,
                        "%f expects a real number argument, got a string"
                    ),
                    ("a = %s", [.integer(1)], 5, "%s expects a string argument, got an integer"),
                    (
                        "%K = 1", [.string("a")], 1,
                        "%K expects a key path argument (.keyPath), got a string"
                    ),
                    (
                        "%K = 1", [.keyPath("a..b")], 1,
                        "%K expects a key path such as 'owner.name'; component 2 of the argument is not a key name"
                    ),
                    (
                        "a = %@", [.keyPath("b")], 5,
                        "%@ expects a value argument; %K takes key paths"
                    ),
                    (
                        "a BETWEEN %@", [.array([.integer(1)])], 11,
                        "BETWEEN expects an array of exactly two values"
                    ),
                ]
        for item in cases {
            let error = syntaxError(item.format, item.arguments)
            #expect(error?.column == item.column, "\(item.format)")
            #expect(error?.message == item.message, "\(item.format)")
            #expect(error?.predicate == item.format)
        }
    }

    @Test func testDescriptionQuotesThePredicateWithACaret() {
        let error = syntaxError("age >")
        #expect(
            error?.description == """
                predicate syntax error at column 6: expected a key path or value after '>', \
                found the end of the predicate
                  age >
                       ^
                """)
    }
}
