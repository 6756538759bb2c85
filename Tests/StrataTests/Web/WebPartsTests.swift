import Foundation
import Testing

@testable import StrataFormats
@testable import StrataWeb

struct WebPartsTests {
    @Test func escapingCoversTheFiveCharactersOfMarkup() {
        #expect(
            HTML.escape("<a href=\"x\" title='y'>&</a>")
                == "&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;")
        #expect(HTML.escape("café ☕") == "café ☕")
    }

    @Test func percentEncodingLeavesOnlyUnreservedCharacters() {
        #expect(HTML.percentEncode("a b/c?d=é") == "a%20b%2Fc%3Fd%3D%C3%A9")
        #expect(HTML.percentEncode("Entry_1-2.3~") == "Entry_1-2.3~")
    }

    @Test func byteRangesAreReadAsRFC9110Says() {
        #expect(ByteRange.parse("bytes=0-9", length: 100) == .range(0..<10))
        #expect(ByteRange.parse("bytes=90-", length: 100) == .range(90..<100))
        #expect(ByteRange.parse("bytes=-10", length: 100) == .range(90..<100))
        #expect(ByteRange.parse("bytes=-500", length: 100) == .range(0..<100))
        #expect(ByteRange.parse("bytes=50-5000", length: 100) == .range(50..<100))
        #expect(ByteRange.parse("bytes=100-", length: 100) == .unsatisfiable)
        #expect(ByteRange.parse("bytes=99999999999999999999999-", length: 100) == .unsatisfiable)
        #expect(ByteRange.parse("bytes=0-1,5-6", length: 100) == .whole)
        #expect(ByteRange.parse("items=0-1", length: 100) == .whole)
        #expect(ByteRange.parse("bytes=9-1", length: 100) == .whole)
        #expect(ByteRange.parse("bytes=x-1", length: 100) == .whole)
    }

    @Test func onlyAllowListedMediaIsServedByItsType() {
        #expect(MediaType.sniff(WebFixture.png).contentType == "image/png")
        #expect(MediaType.sniff([0xFF, 0xD8, 0xFF, 0xE0]).presentation == .image)
        #expect(MediaType.sniff(Array("RIFF\0\0\0\0WAVEfmt ".utf8)).presentation == .audio)
        #expect(MediaType.sniff([0x1A, 0x45, 0xDF, 0xA3, 0, 0]).contentType == "video/webm")
        for hostile in ["<svg onload=alert(1)>", "<!DOCTYPE html><script>", "%PDF-1.7"] {
            let type = MediaType.sniff(Array(hostile.utf8))
            #expect(type.contentType == "application/octet-stream", "\(hostile)")
            #expect(type.presentation == .download)
        }
    }

    @Test func theTokenComparisonNeedsTheWholeToken() {
        #expect(TokenCheck.matches("abc", "abc"))
        #expect(!TokenCheck.matches("ab", "abc"))
        #expect(!TokenCheck.matches("abcd", "abc"))
        #expect(!TokenCheck.matches("", "abc"))
        #expect(!TokenCheck.matches("abd", "abc"))
    }

    @Test func fileNamesOfModelNamesStayInTheirFolder() {
        #expect(SiteLinks.fileName("DiaryEntry") == "DiaryEntry")
        #expect(SiteLinks.fileName("..") == "x2e2e")
        #expect(SiteLinks.fileName("a/b") == "x612f62")
        let links = SiteLinks.files(at: "object/Entry/1.html")
        #expect(links.model == "../../index.html")
        #expect(links.stylesheet == "../../style.css")
    }
}
