import Foundation
import Testing

@testable import Strata
@testable import StrataQuery

/// Folding, LIKE and MATCHES: the pure functions the SQL side registers.
struct PredicateStringFoldingTests {
    private let cd: StringOptions = [.caseInsensitive, .diacriticInsensitive]

    @Test func testFoldingIsCaseThenDiacriticInsensitive() {
        #expect(PredicateStringFolding.fold("Vögel", cd) == "vogel")
        #expect(PredicateStringFolding.fold("Vögel", []) == "Vögel")
        #expect(PredicateStringFolding.fold("ABC xyz", .caseInsensitive) == "abc xyz")
        #expect(PredicateStringFolding.fold("Straße", .caseInsensitive) == "strasse")
        #expect(PredicateStringFolding.fold("ΣΊΣΥΦΟΣ", cd) == "σισυφοσ")
        #expect(PredicateStringFolding.fold("Çem", .diacriticInsensitive) == "Cem")
        // Precomposed and decomposed input fold alike.
        #expect(
            PredicateStringFolding.fold("caf\u{E9}", .caseInsensitive).utf8.elementsEqual(
                PredicateStringFolding.fold("CAFE\u{301}", .caseInsensitive).utf8))
    }

    @Test func testByteComparisonsAreBinaryNotCanonical() {
        #expect(!PredicateStringFolding.bytesEqual("caf\u{E9}", "cafe\u{301}"))
        #expect(PredicateStringFolding.compareBytes("Z", "a") < 0)
        #expect(PredicateStringFolding.compareBytes("ab", "a") > 0)
        #expect(PredicateStringFolding.containsBytes("Weltall", "all"))
        #expect(PredicateStringFolding.containsBytes("x", ""))
        #expect(!PredicateStringFolding.containsBytes("Alle", "all"))
    }

    @Test func testLikeWildcards() {
        #expect(PredicateLike.matches("Countess", pattern: "C*ss", options: []))
        #expect(!PredicateLike.matches("Countess", pattern: "c*ss", options: []))
        #expect(PredicateLike.matches("Countess", pattern: "c*ss", options: .caseInsensitive))
        #expect(PredicateLike.matches("Evé", pattern: "Ev?", options: []))
        #expect(PredicateLike.matches("", pattern: "*", options: []))
        #expect(!PredicateLike.matches("abc", pattern: "ab", options: []))
        #expect(PredicateLike.matches("a*b", pattern: "a\\*b", options: []))
        #expect(!PredicateLike.matches("axb", pattern: "a\\*b", options: []))
        #expect(PredicateLike.matches("aXbXc", pattern: "a*b*c", options: []))
        #expect(PredicateLike.matches("mississippi", pattern: "*sip*", options: []))
    }

    @Test func testMatchesIsWholeString() throws {
        #expect(try PredicateRegex.matches("ada", pattern: "(a|ad)a", options: []))
        #expect(try !PredicateRegex.matches("dora x", pattern: "dora", options: []))
        #expect(try PredicateRegex.matches("FINN", pattern: "f.nn", options: .caseInsensitive))
        #expect(try PredicateRegex.matches("Çem", pattern: "Cem", options: .diacriticInsensitive))
        #expect(throws: Strata.FetchPredicateError.self) {
            try PredicateRegex.matches("x", pattern: "(", options: [])
        }
    }
}
