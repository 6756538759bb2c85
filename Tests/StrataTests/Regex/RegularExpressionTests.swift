import Foundation
import Testing

@testable import Strata
@testable import StrataValues

struct RegularExpressionTests {
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
