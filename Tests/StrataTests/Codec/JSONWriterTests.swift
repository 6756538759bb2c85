import Foundation
import Testing

@testable import Strata
@testable import StrataValues

/// The one JSON writer: escapes, numbers, dates, and both layouts (one line
/// for exports and bundles, indented for Day One files).
struct JSONWriterTests {
    private func text(_ style: JSONWriter.Style = .compact, _ build: (inout JSONWriter) -> Void)
        -> String
    {
        var writer = JSONWriter(style: style)
        build(&writer)
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    @Test func testTheDocExampleWritesAnObject() {
        var json = JSONWriter()
        json.openObject()
        json.key("name")
        json.string("Ada")
        json.closeObject()  // {"name":"Ada"}
        #expect(json.bytes == Array(#"{"name":"Ada"}"#.utf8))
    }

    @Test func testStringsEscapeOnlyWhatRFC8259Requires() {
        #expect(
            JSONWriter.quoted("a\"b\\c/é\n\r\t\u{8}\u{C}\u{1}") == #""a\"b\\c/é\n\r\t\b\f\u0001""#)
        let dayOne = JSONWriter.Style(
            indent: 2, colon: Array(" : ".utf8), shortBackspaceAndFormFeed: false,
            uppercaseHex: false)
        #expect(JSONWriter.quoted("\u{8}\u{C}\u{1F}", style: dayOne) == #""\u0008\u000c\u001f""#)
    }

    @Test func testCompactObjectsAndArraysHaveNoSpaces() {
        let json = text { writer in
            writer.openObject()
            writer.key("a")
            writer.openArray()
            writer.integer(Int64(1))
            writer.real(2.5)
            writer.real(.infinity)
            writer.null()
            writer.closeArray()
            writer.key("b")
            writer.openObject()
            writer.closeObject()
            writer.key("c")
            writer.date(0.5)
            writer.key("d")
            writer.data(Data([1, 2]))
            writer.closeObject()
        }
        #expect(
            json == #"{"a":[1,2.5,null,null],"b":{},"c":"2001-01-01T00:00:00.500Z","d":"AQI="}"#)
    }

    @Test func testIndentedLayoutPutsEachValueOnItsOwnLine() {
        let style = JSONWriter.Style(indent: 2, margin: 4, colon: Array(" : ".utf8))
        let json = text(style) { writer in
            writer.openObject()
            writer.key("a")
            writer.openArray()
            writer.boolean(true)
            writer.closeArray()
            writer.key("b")
            writer.openArray()
            writer.closeArray()
            writer.closeObject()
        }
        #expect(json == "{\n      \"a\" : [\n        true\n      ],\n      \"b\" : []\n    }")
    }

    @Test func testNumbersAsAPersonWritesThem() {
        #expect(JSONWriter.numberText(3) == "3")
        #expect(JSONWriter.numberText(-0.0) == "0")
        #expect(JSONWriter.numberText(0.1) == "0.1")
        #expect(JSONWriter.numberText(1e15) == "1000000000000000.0")
        #expect(JSONWriter.numberText(1e16) == "1e+16")
        #expect(text { $0.number(2) } + text { $0.number(.nan) } == "2null")
    }
}
