import Foundation
import Testing

@testable import Strata
@testable import StrataValues

struct RegexCacheTests {
    @Test func testCacheHandsEachThreadItsOwnHandle() async throws {
        let cache = RegexCache()
        try await withThrowingTaskGroup(of: Bool.self) { group in
            for index in 0..<8 {
                group.addTask {
                    try cache.withExpression("n(\\d+)", options: []) { expression in
                        (0..<200).allSatisfy { round in
                            (try? expression.matchesWhole("n\(index * 1000 + round)")) == true
                        }
                    }
                }
            }
            for try await ok in group { #expect(ok) }
        }
    }

    @Test func testInvalidPatternIsNotCachedAndThrowsEachTime() {
        let cache = RegexCache()
        for _ in 0..<2 {
            #expect(
                regexErrorCode { try cache.withExpression("(", options: []) { _ in } }
                    == .invalidPattern)
        }
    }

    @Test func testOptionsAreHeldApart() throws {
        let cache = RegexCache()
        #expect(
            try cache.withExpression("abc", options: .caseInsensitive) {
                try $0.matchesWhole("ABC")
            })
        #expect(try !cache.withExpression("abc", options: []) { try $0.matchesWhole("ABC") })
    }
}
