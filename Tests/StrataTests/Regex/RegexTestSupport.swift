import Foundation
import Testing

@testable import Strata
@testable import StrataValues

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
