// swift-format-ignore-file
// Each block is a verbatim copy of a doc example, laid out as the docs lay it out.

import Foundation
import Testing

@testable import Strata
@testable import StrataContext
@testable import StrataCore
@testable import StrataValues

// The examples of the Regex docs, as written there (DocExampleCoverageTests
// checks that each block is here); compiled, not run.
enum RegexDocExamples {
    /// From Sources/StrataValues/Regex/RegexLimits.swift.
    static func regexLimits(context: Context, request: FetchRequest) throws {
        let tight = RegexLimits(timeLimit: 100, stackLimit: 1 << 20)
        let rows = try RegexLimits.$current.withValue(tight) {
            try context.fetch(request)
        }
        _ = rows
    }

    /// From Sources/StrataValues/Regex/RegexError.swift.
    static func regexError(text: String) throws {
        do {
            _ = try RegularExpression("(a+)+$").matchesWhole(text)
        } catch RegexError.timeLimit {
            // the pattern backtracks too much on this text
        }
    }

    /// From Sources/StrataValues/Regex/RegexCache.swift.
    static func regexCache() throws {
        let matched = try RegexCache.shared.withExpression("f.nn", options: []) {
            try $0.matchesWhole("finn")
        }
        _ = matched
    }

    /// From Sources/StrataValues/Regex/RegularExpression.swift.
    static func regularExpression() throws {
        let code = try RegularExpression("[A-Z]{3}", options: .caseInsensitive)
        let whole = try code.matchesWhole("eur")                     // true
        let first = try code.firstMatch(in: "from usd to eur")?.matchedText   // "fro"
        _ = (whole, first)
    }
}
