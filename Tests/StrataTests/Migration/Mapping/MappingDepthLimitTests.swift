import Foundation
import Testing

@testable import Strata

/// Issue 15, point 4: a mapping file whose `where` or expressions nest or
/// chain without end gets a located issue instead of crashing the loader.
struct MappingDepthLimitTests {
    private func issues(entity: String) throws -> [String] {
        let from = try MappingTestSupport.model(
            "Library", 1,
            #"{"Book": {"attributes": {"title": {"type": "string", "optional": true}}}}"#)
        let to = try MappingTestSupport.model(
            "Library", 2,
            #"{"Book": {"attributes": {"title": {"type": "string", "optional": true}}}}"#)
        let text =
            #"{"format": "strata-mapping/1", "from": 1, "to": 2, "entities": {"Book": "#
            + entity + "}}"
        return MappingTestSupport.issues(text, from: from, to: to).map(\.description)
    }

    @Test func testWhereOfAHundredThousandBangsIsALocatedIssue() throws {
        let condition = String(repeating: "!", count: 100_000) + "title == nil"
        let found = try issues(entity: #"{"where": "\#(condition)"}"#)
        #expect(found.count == 1)
        #expect(found.first?.hasPrefix("test.mapping.json:1:") == true)
        #expect(found.first?.contains("$.entities.Book.where") == true)
        #expect(found.first?.contains("column 101") == true)
        #expect(found.first?.contains("deeper than 100 levels") == true)
    }

    @Test func testExpressionChainOfAHundredThousandTermsIsALocatedIssue() throws {
        let sum = Array(repeating: "1", count: 100_000).joined(separator: " + ")
        let found = try issues(
            entity: #"{"attributes": {"title": "string(\#(sum))"}}"#)
        #expect(found.count == 1)
        #expect(found.first?.contains("$.entities.Book.attributes.title") == true)
        #expect(found.first?.contains("deeper than 64 levels") == true)
    }

    @Test func testExpressionOfSixtyFourLevelsStillLoads() throws {
        let sum = Array(repeating: "1", count: 60).joined(separator: " + ")
        #expect(try issues(entity: #"{"attributes": {"title": "string(\#(sum))"}}"#) == [])
    }
}
