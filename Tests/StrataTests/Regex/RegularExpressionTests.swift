import Foundation
import Testing

@testable import Strata

/// A bound small enough that `(a+)+$` on a few dozen letters hits it at
/// once, so the limit tests take milliseconds.
let tightRegexLimits = RegexLimits(timeLimit: 1, stackLimit: 1 << 20)

/// 40 letters and a `!`: `(a+)+$` tries every split of the letters
/// (2^39) before it fails.
let catastrophicText = String(repeating: "a", count: 40) + "!"

/// The code of the ``RegexError`` `body` throws; nil when it throws none.
func regexErrorCode(_ body: () throws -> Void) -> RegexError.Code? {
    do {
        try body()
        return nil
    } catch {
        return (error as? RegexError)?.code
    }
}

@Suite struct RegularExpressionTests {
    @Test func testMatchesWholeTriesEveryAlternative() throws {
        let expression = try RegularExpression("(a|ad)a")
        #expect(try expression.matchesWhole("ada"))
        #expect(try !expression.matchesWhole("adax"))
        #expect(try !RegularExpression("dora").matchesWhole("dora x"))
        #expect(try RegularExpression("").matchesWhole(""))
    }

    @Test func testCaseInsensitiveOption() throws {
        #expect(try RegularExpression("f.nn", options: .caseInsensitive).matchesWhole("FINN"))
        #expect(try !RegularExpression("f.nn").matchesWhole("FINN"))
    }

    @Test func testTextBeyondBasicPlaneKeepsItsRanges() throws {
        let expression = try RegularExpression("b(.)d")
        let match = try #require(try expression.firstMatch(in: "a😀bçd"))
        #expect(match.matchedText == "bçd")
        #expect(match.group(1) == "ç")
        #expect(try expression.matchesWhole("b😀d"))
    }

    @Test func testFirstAndAllMatches() throws {
        let expression = try RegularExpression("#(\\w+)|@")
        let all = try expression.allMatches(in: "#one @ #two")
        #expect(all.map { String($0.matchedText) } == ["#one", "@", "#two"])
        #expect(all.map { $0.group(1).map(String.init) } == ["one", nil, "two"])
        #expect(try expression.firstMatch(in: "no tags") == nil)
    }

    @Test func testInvalidPatternGivesItsColumn() {
        #expect {
            _ = try RegularExpression("ab(c")
        } throws: { error in
            guard let error = error as? RegexError else { return false }
            return error.code == .invalidPattern && error.column == 4
                && error.pattern == "ab(c"
                && "\(error)"
                    == "regular expression \"ab(c\" is not valid at column 4: mismatched paren "
                    + "(U_REGEX_MISMATCHED_PAREN)"
        }
        #expect {
            _ = try RegularExpression("a{2,1}")
        } throws: { ($0 as? RegexError)?.column == 6 }
    }

    @Test func testTimeLimitIsAnErrorNamingThePattern() throws {
        let expression = try RegularExpression("((a+)+$)|(.*!)")
        #expect {
            _ = try expression.matchesWhole(catastrophicText, limits: tightRegexLimits)
        } throws: { error in
            guard let error = error as? RegexError else { return false }
            return error.code == .timeLimit && "\(error)".contains("\"((a+)+$)|(.*!)\"")
        }
        // The other order matches at once, and the same handle still works.
        #expect(try RegularExpression("(.*!)|((a+)+$)").matchesWhole(catastrophicText))
        #expect(try expression.matchesWhole("aaa!", limits: tightRegexLimits))
    }

    @Test func testStackLimitIsAnError() throws {
        // Each repetition of a group with alternatives keeps a backtrack
        // frame: 100,000 of them need more than 1 MiB.
        let text = String(repeating: "ab", count: 100_000)
        let expression = try RegularExpression("(a|b)*")
        let smallStack = RegexLimits(timeLimit: RegexLimits.standard.timeLimit, stackLimit: 1 << 20)
        #expect(
            regexErrorCode { _ = try expression.matchesWhole(text, limits: smallStack) }
                == .stackLimit)
        #expect(try expression.matchesWhole(text))
    }

    @Test func testCopyMatchesOnItsOwn() throws {
        let expression = try RegularExpression("x+")
        let copy = try expression.copy()
        #expect(try copy.matchesWhole("xxx"))
        #expect(try !expression.matchesWhole("xy"))
        #expect(try copy.firstMatch(in: "axxb")?.matchedText == "xx")
    }

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

    @Test func testTaskLocalLimitsApply() throws {
        let expression = try RegularExpression("(a+)+$")
        let code = regexErrorCode {
            try RegexLimits.$current.withValue(tightRegexLimits) {
                _ = try expression.matchesWhole(catastrophicText)
            }
        }
        #expect(code == .timeLimit)
    }
}
