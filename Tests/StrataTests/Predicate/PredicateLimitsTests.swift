import Foundation
import Testing

@testable import Strata
@testable import StrataContext
@testable import StrataQuery

/// Issue 15, point 4: deep or large predicates get a located error instead
/// of crashing the parser (stack overflow) or reaching SQLite, which refuses
/// them with "parser stack overflow" or "Expression tree is too large".
struct PredicateLimitsTests {
    /// The syntax error `text` throws, or nil when it parses.
    private func syntaxError(_ text: String) -> PredicateSyntaxError? {
        do {
            _ = try Strata.FetchPredicate(text)
            return nil
        } catch {
            return error as? PredicateSyntaxError
        }
    }

    /// The compiled predicate run on the fixture store; the error thrown on
    /// the way, if any.
    private func runError(_ text: String, _ fixture: PredicateFixture) -> (any Error)? {
        do {
            let predicate = try Strata.FetchPredicate(text)
            var compiler = try PredicateSQLCompiler(
                mapping: fixture.context.mapping, entity: "Person")
            compiler.predicateText = text
            let condition = try compiler.condition(predicate)
            // As a fetch builds it (FetchPlan), sorted.
            let statement = try fixture.store.connection.prepare(
                "SELECT t0.Z_PK FROM \(compiler.fromClause) WHERE t0.Z_ENT IN (1, 2) AND "
                    + "\(condition) ORDER BY t0.ZNAME, t0.Z_PK")
            try statement.bind(compiler.arguments)
            try statement.forEachRow { _ in }
            return nil
        } catch {
            return error
        }
    }

    // MARK: - Parsing

    @Test func testThirtyThousandParenthesesAreASyntaxError() throws {
        let text =
            String(repeating: "(", count: 30_000) + "text == nil"
            + String(repeating: ")", count: 30_000)
        let error = try #require(syntaxError(text))
        #expect(error.column == 101)
        #expect(error.message.contains("deeper than 100 levels"))
        #expect(error.predicate == text)
    }

    @Test func testFiftyThousandBangsAreASyntaxError() throws {
        let error = try #require(syntaxError(String(repeating: "!", count: 50_000) + "a == 1"))
        #expect(error.column == 101)
        #expect(error.message.contains("deeper than 100 levels at '!'"))
    }

    @Test func testTwentyThousandOpenNotsAreASyntaxError() throws {
        let text =
            String(repeating: "(NOT ", count: 20_000) + "a == 1"
            + String(repeating: ")", count: 20_000)
        let error = try #require(syntaxError(text))
        // 50 "(NOT " open 100 levels; the 51st '(', at column 251, is one too many.
        #expect(error.column == 251)
    }

    @Test func testNestedListsAreASyntaxError() throws {
        let text =
            "a IN " + String(repeating: "{", count: 10_000) + String(repeating: "}", count: 10_000)
        let error = try #require(syntaxError(text))
        #expect(error.column == 106)
        #expect(error.message.contains("'{'"))
    }

    @Test func testOneHundredLevelsStillParse() throws {
        let text =
            String(repeating: "(", count: 50) + String(repeating: "NOT ", count: 50) + "a == 1"
            + String(repeating: ")", count: 50)
        #expect(syntaxError(text) == nil)
        #expect(syntaxError("NOT " + text) != nil)
    }

    // MARK: - Walking trees built in code

    @Test func testDeepTreeBuiltInCodeIsRefusedByCheckAndEvaluate() throws {
        // Deeper than the parser allows, yet shallow enough for Swift to
        // release the tree (which recurses) on a test thread's stack.
        var predicate = Strata.FetchPredicate.constant(true)
        for _ in 0..<1_000 { predicate = .not(predicate) }
        let fixture = try PredicateFixture.make()
        func code(_ body: () throws -> Void) -> Strata.FetchPredicateError.Code? {
            do {
                try body()
                return nil
            } catch {
                return (error as? Strata.FetchPredicateError)?.code
            }
        }
        #expect(code { try predicate.check(entity: "Person", model: fixture.model) } == .tooComplex)
        let ada = try #require(fixture.objects["ada"])
        #expect(code { _ = try predicate.evaluate(with: ada) } == .tooComplex)
        var compiler = try PredicateSQLCompiler(mapping: fixture.context.mapping, entity: "Person")
        #expect(code { _ = try compiler.condition(predicate) } == .tooComplex)
    }

    // MARK: - SQL

    @Test func testFiveThousandAndsAreRefusedBeforeSQLite() throws {
        let fixture = try PredicateFixture.make()
        let text = Array(repeating: "age > 3", count: 5_000).joined(separator: " AND ")
        let error = try #require(runError(text, fixture) as? Strata.FetchPredicateError)
        #expect(error.code == .tooComplex)
        #expect(error.message.contains("5000 comparisons"))
        #expect(error.predicate == text)
        let most = Array(repeating: "age > 3", count: 500).joined(separator: " AND ")
        #expect(runError(most, fixture) == nil)
    }

    @Test func testFortyStepAnyKeyPathIsRefusedBeforeSQLite() throws {
        let fixture = try PredicateFixture.make()
        let path = (0..<40).map { $0 % 2 == 0 ? "groups" : "members" }.joined(separator: ".")
        let text = "name == 'x' OR ANY \(path).age > 3"
        let error = try #require(runError(text, fixture) as? Strata.FetchPredicateError)
        #expect(error.code == .tooComplex)
        #expect(error.column == 20)  // The key path.
        #expect(error.message.contains("nested to-many steps"))
        let six = (0..<6).map { $0 % 2 == 0 ? "groups" : "members" }.joined(separator: ".")
        #expect(runError("ANY \(six).age > 3", fixture) == nil)
    }

    /// Checking (as `strata query` and mapping files do before anything
    /// runs) already refuses what SQL cannot take.
    @Test func testCheckRefusesWhatSQLCannotTake() throws {
        let fixture = try PredicateFixture.make()
        func checkError(_ text: String) -> Strata.FetchPredicateError? {
            do {
                _ = try Strata.FetchPredicate(text, entity: "Person", model: fixture.model)
                return nil
            } catch {
                return error as? Strata.FetchPredicateError
            }
        }
        let path = (0..<40).map { $0 % 2 == 0 ? "groups" : "members" }.joined(separator: ".")
        let long = try #require(checkError("ANY \(path).age > 3"))
        #expect(long.code == .tooComplex)
        #expect(long.column == 5)
        #expect(long.message.contains("crosses more than 6 to-many relationships"))
        let many = try #require(
            checkError(Array(repeating: "age > 3", count: 501).joined(separator: " OR ")))
        #expect(many.code == .tooComplex)
        #expect(many.message.contains("501 comparisons"))
        let six = (0..<6).map { $0 % 2 == 0 ? "groups" : "members" }.joined(separator: ".")
        #expect(checkError("ANY \(six).age > 3") == nil)
    }

    /// Every shape of nesting either runs or is refused with `tooComplex`:
    /// none reaches SQLite's parser stack overflow (measured: 45 NOTs, 30
    /// groups, 9 subqueries fill it).
    @Test func testNestingRunsOrIsRefusedNeverOverflowingSQLite() throws {
        let fixture = try PredicateFixture.make()
        func path(_ steps: Int) -> String {
            (0..<steps).map { $0 % 2 == 0 ? "groups" : "members" }.joined(separator: ".")
                + (steps % 2 == 0 ? ".age" : ".name")
        }
        let shapes: [(String, (Int) -> String)] = [
            ("NOT", { String(repeating: "NOT ", count: $0) + "age > 3" }),
            (
                "OR",
                {
                    String(repeating: "(age > 1 OR ", count: $0) + "age > 3"
                        + String(repeating: ")", count: $0)
                }
            ),
            (
                "NOT OR",
                {
                    String(repeating: "NOT (age > 1 AND ", count: $0) + "age > 3"
                        + String(repeating: ")", count: $0)
                }
            ),
            ("ANY", { "ANY \(path($0)) > 3" }),
            ("ALL", { "ALL \(path($0)) > 3" }),
            ("NOT ANY", { String(repeating: "NOT ", count: $0) + "ANY \(path(4)) > 3" }),
            ("NOT @count", { String(repeating: "NOT ", count: $0) + "groups.@count > 3" }),
        ]
        for (name, make) in shapes {
            var refused = false
            for depth in 1...50 where !refused {
                guard let error = runError(make(depth), fixture) else { continue }
                let code = (error as? Strata.FetchPredicateError)?.code
                #expect(code == .tooComplex, "\(name) at \(depth): \(error)")
                refused = true
            }
            #expect(refused, "\(name) was never refused")
        }
    }
}
