import Testing

@testable import StrataValues

/// `ExactText` compares as SQLite compares text: by bytes, where Swift's
/// `String` compares by canonical equivalence.
struct ExactTextTests {
    @Test func canonicallyEquivalentFormsAreTwoKeys() {
        let composed = "caf\u{E9}"
        let decomposed = "cafe\u{301}"
        #expect(composed == decomposed)  // Swift's String: one string.
        #expect(ExactText(composed) != ExactText(decomposed))
        #expect(ExactText(composed) == ExactText("caf" + "\u{E9}"))
        var index: [ExactText: Int] = [:]
        index[ExactText(composed)] = 1
        index[ExactText(decomposed)] = 2
        index[ExactText(composed)] = 3
        #expect(index.count == 2)
        #expect(index[ExactText(decomposed)] == 2)
        #expect(Set([ExactText("a"), ExactText("a"), ExactText("A")]).count == 2)
    }
}
