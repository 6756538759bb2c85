import Foundation
import Testing

@testable import Strata
@testable import StrataContext
@testable import StrataCore
@testable import StrataQuery

/// `MATCHES` through a context's fetch (the SQL function) and in memory
/// (`FetchPredicate.evaluate(with:)`), on issue 15's catastrophic pattern: a match
/// either finishes, with the same rows whatever the order of the
/// alternatives, or fails naming the pattern and the object; it never
/// answers a silent "no match".
struct PredicateRegexTests {
    /// Three diary entries whose text is `text`.
    private func diary(_ text: String) throws -> (ContextFixture, [ManagedObject]) {
        let fixture = try ContextFixture("Diary")
        var entries: [ManagedObject] = []
        for day in 0..<3 {
            let entry = try fixture.context.insert("DiaryEntry")
            try entry.set("text", text)
            try entry.setValue(.date(Double(day) * 86_400), forKey: "creationTime")
            entries.append(entry)
        }
        try fixture.context.save()
        return (fixture, entries)
    }

    private func fetch(_ fixture: ContextFixture, _ predicate: String) throws -> Int {
        var request = FetchRequest(entity: "DiaryEntry")
        request.predicate = try FetchPredicate(predicate)
        return try fixture.context.fetch(request).count
    }

    private func evaluate(_ entries: [ManagedObject], _ predicate: String) throws -> Int {
        let parsed = try FetchPredicate(predicate)
        return try entries.filter { try parsed.evaluate(with: $0) }.count
    }

    static let slowFirst = "text MATCHES '((a+)+$)|(.*!)'"
    static let fastFirst = "text MATCHES '(.*!)|((a+)+$)'"

    @Test func testAlternativesInEitherOrderGiveTheSameRows() throws {
        // Short enough for `(a+)+$` to fail within the default limits.
        let (fixture, entries) = try diary(String(repeating: "a", count: 12) + "!")
        #expect(try fetch(fixture, Self.slowFirst) == 3)
        #expect(try fetch(fixture, Self.fastFirst) == 3)
        #expect(try evaluate(entries, Self.slowFirst) == 3)
        #expect(try evaluate(entries, Self.fastFirst) == 3)
    }

    @Test func testFetchThatHitsTheTimeLimitFailsNamingPatternAndObject() throws {
        let (fixture, _) = try diary(catastrophicText)
        #expect(try fetch(fixture, Self.fastFirst) == 3)
        let error = try #require(
            throws: RegexError.self,
            performing: {
                try RegexLimits.$current.withValue(tightRegexLimits) {
                    _ = try fetch(fixture, Self.slowFirst)
                }
            })
        #expect(error.code == .timeLimit)
        #expect(error.pattern == "((a+)+$)|(.*!)")
        #expect(error.subject == "DiaryEntry/p1")
        #expect("\(error)".hasPrefix("regular expression \"((a+)+$)|(.*!)\" on DiaryEntry/p1: "))
    }

    @Test func testEvaluationThatHitsTheTimeLimitFailsNamingPatternAndObject() throws {
        let (_, entries) = try diary(catastrophicText)
        #expect(try evaluate(entries, Self.fastFirst) == 3)
        let error = try #require(
            throws: RegexError.self,
            performing: {
                try RegexLimits.$current.withValue(tightRegexLimits) {
                    _ = try evaluate(entries, Self.slowFirst)
                }
            })
        #expect(error.code == .timeLimit)
        #expect(error.subject == entries[0].objectID.description)
    }

    @Test func testInvalidPatternIsAPredicateErrorWithICUsColumn() throws {
        let (fixture, entries) = try diary("x")
        for run in [
            { _ = try fetch(fixture, "text MATCHES 'ab(c'") },
            { _ = try evaluate(entries, "text MATCHES 'ab(c'") },
        ] {
            let error = try #require(throws: Strata.FetchPredicateError.self, performing: run)
            #expect(error.code == .invalidPattern)
            #expect(error.message.contains("at column 4 of the pattern"))
        }
    }
}
