import Foundation
import Testing

@testable import Strata
@testable import StrataCore

// MARK: - Regular expressions that backtrack without end (issue 15)

extension MappingEdgeCaseTests {
    /// What a match says when it hits ``tightRegexLimits``' time limit.
    static let tightTimeLimitHit =
        "the match hit its time limit (1, in ICU's units of about 10,000 steps); the pattern "
        + "backtracks too much on this text (nested repetition such as (a+)+ is the usual cause)"

    /// Issue 15's reproduction made small: `matches(name, "(a+)+$")` on 40
    /// letters and a `!` hung `migrate`. Now the run stops at the first
    /// recipe, naming the pattern and the object, and leaves the store as it
    /// was. (Tight limits keep the test quick; the default fails the same
    /// way after about a second.)
    @Test func testCatastrophicMatchesStopsTheRunNamingPatternAndObject() throws {
        let chain = try Self.recipesChain(
            #""title": { "type": "string", "optional": true }"#,
            mapping: #""title": "first(matches(name, '(a+)+$'))""#,
            recipes: [("Soup", nil), (catastrophicText, nil)])

        try RegexLimits.$current.withValue(tightRegexLimits) {
            try expectFailureLeavingTheStore(
                chain,
                naming: "$.entities.Recipe.attributes.title: column 7 of the expression: "
                    + "regular expression \"(a+)+$\": \(Self.tightTimeLimitHit) "
                    + "(for Recipe p2 of version 1)")
        }
    }

    /// A rule's `where` with `MATCHES` runs in SQL: a match that hits the
    /// limit stops the run naming the pattern and the object, instead of
    /// dropping the object as if it did not match.
    @Test func testCatastrophicWhereStopsTheRunInsteadOfDroppingTheObject() throws {
        let chain = try Self.recipesChain(
            #""title": { "type": "string", "optional": true }"#,
            rules: #"{ "Recipe": { "where": "name MATCHES '((a+)+$)|(.*!)'" } }"#,
            recipes: [("Soup!", nil), (catastrophicText, nil)])

        try RegexLimits.$current.withValue(tightRegexLimits) {
            try expectFailureLeavingTheStore(
                chain,
                naming: "regular expression \"((a+)+$)|(.*!)\" on Recipe/p2: the match hit "
                    + "its time limit")
        }
    }

    /// A destination attribute's `pattern` that cannot be checked in time
    /// stops the run naming the rule and the object.
    @Test func testDestinationPatternThatHitsTheLimitStopsTheRun() throws {
        let chain = try Self.recipesChain(
            #""code": { "type": "string", "pattern": "(a+)+$" }"#,
            mapping: #""code": "name""#,
            recipes: [("aaa", nil), (catastrophicText, nil)])

        try RegexLimits.$current.withValue(tightRegexLimits) {
            try expectFailureLeavingTheStore(
                chain,
                naming: "the pattern of code could not be checked: regular expression "
                    + "\"(a+)+$\": \(Self.tightTimeLimitHit) (for Recipe p2 of version 1)")
        }
    }
}
