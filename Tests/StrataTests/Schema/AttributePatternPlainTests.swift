import Testing

@testable import StrataCore
@testable import StrataSchema

/// ``AttributePattern/isPlainPattern(_:)`` lets a context skip compiling
/// a pattern (and loading ICU): every pattern it accepts must be one ICU
/// compiles, or an invalid pattern would pass unnoticed until a value is
/// checked.
struct AttributePatternPlainTests {
    /// Every text up to `length` characters over `alphabet`.
    private func texts(over alphabet: [Character], upTo length: Int) -> [String] {
        var texts = [""]
        var layer = [""]
        for _ in 0..<length {
            layer = layer.flatMap { prefix in alphabet.map { prefix + String($0) } }
            texts += layer
        }
        return texts
    }

    /// Every text of a few characters over the test's characters that it
    /// accepts compiles in ICU; it refuses many.
    @Test(arguments: [
        ("a(|)^$-", 5), ("a9[]-z", 5), ("a(){}2,3*+?", 4), ("aZ[]{}-0,9", 4),
    ])
    func testEveryPlainPatternCompiles(alphabet: String, length: Int) throws {
        var accepted = 0
        var refused = 0
        for text in texts(over: Array(alphabet), upTo: length) {
            guard AttributePattern.isPlainPattern(text) else {
                refused += 1
                continue
            }
            accepted += 1
            #expect(throws: Never.self, "\(text)") { _ = try RegularExpression(text) }
        }
        // Not vacuous either way.
        #expect(accepted > 100)
        #expect(refused > 100)
    }

    @Test func testOthersAreLeftToICU() {
        for text in ["^(image|sound|video|pdf)$", "^[0-9A-F]{32}$", "^[0-9a-f]{2,}$", "a+b*c?"] {
            #expect(AttributePattern.isPlainPattern(text), "\(text)")
        }
        for text in [
            "ab(c", ")", "a)(", "[z-a]", "[]", "*a", "a**", "a{3,2}", "a{,2}", "a{1234}", "a.b",
            "\\d", "é", "(?i)a", "[a-]", "^*",
        ] {
            #expect(!AttributePattern.isPlainPattern(text), "\(text)")
        }
        // The invalid one is still refused, by ICU, with its column.
        #expect(throws: RegexError.self) { _ = try AttributePattern(pattern: "ab(c") }
    }
}
