import Testing

@testable import Strata
@testable import StrataQuery

/// The piecewise fold of SQL scans equals the whole-string fold.
struct ScalarFolderTests {
    static let samples = [
        "Alle Vögel", "Straße", "STRASSE", "Ærø", "café", "cafe\u{301}", "İstanbul", "ΟΔΥΣΣΕΥΣ",
        "ﬁne", "Å\u{301}\u{323}", "q\u{307}\u{323}", "ǖ\u{323}", "Ⅻ", "한국어", "naïve señor", "",
        "plain ascii", "mixed Ünïcödé and ASCII", "\u{301}leading mark",
    ]

    @Test(arguments: [
        StringOptions(), .caseInsensitive, .diacriticInsensitive,
        [.caseInsensitive, .diacriticInsensitive],
    ])
    func testPiecewiseFoldEqualsTheWholeFold(options: StringOptions) {
        let folder = ScalarFolder()
        for sample in ScalarFolderTests.samples {
            var bytes = Array(sample.utf8)
            let folded = bytes.withUnsafeMutableBufferPointer { buffer in
                folder.withFolded(UnsafeBufferPointer(buffer), options) { Array($0) }
            }
            bytes = Array(PredicateStringFolding.fold(sample, options).utf8)
            #expect(folded == bytes, "\(sample)")
        }
    }
}
