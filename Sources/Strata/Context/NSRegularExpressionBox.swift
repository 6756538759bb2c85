import Foundation

/// A compiled validation pattern that must match a whole string, as Core
/// Data's `regularExpressionString` does.
final class NSRegularExpressionBox {
    private let expression: NSRegularExpression

    init(pattern: String) throws {
        do {
            expression = try NSRegularExpression(pattern: pattern)
        } catch {
            throw ContextError(.invalidSchema, "pattern \"\(pattern)\" does not compile")
        }
    }

    /// Whether the pattern matches all of `text`.
    func matchesWhole(_ text: String) -> Bool {
        let range = NSRange(text.startIndex..<text.endIndex, in: text)
        guard let match = expression.firstMatch(in: text, options: [.anchored], range: range) else {
            return false
        }
        return match.range == range
    }
}
