import Testing

@testable import Strata
@testable import StrataFormats

/// Object ids (`Entity/p<pk>`) are read on their bytes, strictly.
struct BundleObjectDecoderTests {
    @Test func testIDsAreEntityAndPositiveKey() {
        #expect(
            BundleObjectDecoder.parseID("DiaryEntry/p12").map { $0 == ("DiaryEntry", 12) } == true)
        // The last slash splits.
        #expect(BundleObjectDecoder.parseID("A/b/p7").map { $0 == ("A/b", 7) } == true)
        #expect(
            BundleObjectDecoder.parseID("Tag/p9223372036854775807").map { $0 == ("Tag", Int64.max) }
                == true)
        #expect(BundleObjectDecoder.parseID("Ünïcode/p1").map { $0 == ("Ünïcode", 1) } == true)
    }

    @Test(arguments: [
        "", "Tag", "Tag/", "Tag/p", "Tag/12", "/p1", "Tag/p0", "Tag/p-1", "Tag/p+1", "Tag/p1x",
        "Tag/p 1", "Tag/p9223372036854775808", "Tag/p99999999999999999999",
    ])
    func testMalformedIDsAreRefused(_ id: String) {
        #expect(BundleObjectDecoder.parseID(id) == nil)
    }
}
