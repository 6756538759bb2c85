import Testing

@testable import StrataQuery

/// The byte search behind `strata_contains`/`beginswith`/`endswith`: the
/// needle (already folded) found at every place a naive search finds it,
/// ASCII letters compared without case when asked.
struct PredicateSQLFunctionsFindTests {
    private func find(
        _ needle: String, in text: String, _ position: PredicateSQLFunctions.Position = .anywhere,
        ignoringCase: Bool = true
    ) -> Bool {
        Array(needle.utf8).withUnsafeBufferPointer { needle in
            Array(text.utf8).withUnsafeBufferPointer { text in
                PredicateSQLFunctions.find(needle, in: text, position, ignoringCase: ignoringCase)
            }
        }
    }

    @Test func testTheNeedleIsFoundInEitherCaseAnywhere() {
        #expect(find("riverbank", in: "by the RiverBank"))
        #expect(find("riverbank", in: "RIVERBANK"))
        #expect(find("riverbank", in: "rRiverbank"))
        #expect(find("riverbank", in: "riverbanriverbank"))
        #expect(!find("riverbank", in: "riverban"))
        #expect(!find("riverbank", in: "RiverBank", ignoringCase: false))
        #expect(find("iverBank", in: "RiverBank", ignoringCase: false))
        #expect(find("", in: ""))
        #expect(find("", in: "x"))
        #expect(!find("x", in: ""))
        #expect(find("1-2", in: "a 1-2"))
        #expect(find("straße", in: "die Straße"))
    }

    @Test func testEveryPlaceANaiveSearchFindsIsFound() {
        let texts = ["abAB", "aAbBaB", "xyzXYZab", "bbbbA", "ABABABAB"]
        let needles = ["ab", "ba", "a", "b", "abab", "zx", "bbbb"]
        for text in texts {
            for needle in needles {
                let naive = text.lowercased().contains(needle)
                #expect(find(needle, in: text) == naive, "\(needle) in \(text)")
            }
        }
        #expect(find("ab", in: "xxAB", .suffix) && !find("ab", in: "ABxx", .suffix))
        #expect(find("ab", in: "ABxx", .prefix) && !find("ab", in: "xxAB", .prefix))
    }
}
