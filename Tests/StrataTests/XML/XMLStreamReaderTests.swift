import Foundation
import Testing

@testable import Strata
@testable import StrataCore
@testable import StrataSchema

struct XMLStreamReaderTests {
    private typealias Event = XMLStreamReader.Event

    /// Writes `data` to a temporary file, reads all its events, removes it.
    private func events(of data: Data) throws -> [Event] {
        let url = FileManager.default.temporaryDirectory
            .appending(path: "strata-stream-\(UUID().uuidString).xml")
        try data.write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let reader = try XMLStreamReader(contentsOf: url)
        var events: [Event] = []
        while let event = try reader.next() { events.append(event) }
        return events
    }

    private func events(of xml: String) throws -> [Event] {
        try events(of: Data(xml.utf8))
    }

    private func error(of xml: String) throws -> XMLError {
        try #require(throws: XMLError.self) { try events(of: xml) }
    }

    @Test func testEventsComeInDocumentOrderWithAttributesAndLines() throws {
        let xml = """
            <?xml version="1.0"?>
            <dict a="1" b='x &amp; &lt;y&gt; &#38;#38;'>
                <key>k</key>
                <string>one<![CDATA[ & two]]><!-- c --></string>
                <true/>
            </dict>
            """
        let expected: [Event] = [
            .startElement(
                name: "dict",
                attributes: [
                    .init(name: "a", value: "1"), .init(name: "b", value: "x & <y> &#38;"),
                ],
                line: 2),
            .startElement(name: "key", attributes: [], line: 3),
            .text("k"),
            .endElement(name: "key", line: 3),
            .startElement(name: "string", attributes: [], line: 4),
            .text("one & two"),
            .endElement(name: "string", line: 4),
            .startElement(name: "true", attributes: [], line: 5),
            .endElement(name: "true", line: 5),
            .endElement(name: "dict", line: 6),
        ]
        #expect(try events(of: xml) == expected)
    }

    @Test func testWhitespaceIsKeptOnlyAsAnElementsWholeContent() throws {
        let events = try events(of: "<a>\n <b> </b>\n <c/>\n</a>")
        #expect(events.filter { if case .text = $0 { true } else { false } } == [.text(" ")])
    }

    @Test func testTextSplitAcrossChunksComesAsOneEvent() throws {
        let long = String(repeating: "0123456789abcdef", count: XMLStreamReader.chunkSize / 8)
        let events = try events(of: "<data>\(long)</data>")
        #expect(events.count == 3)
        #expect(events[1] == .text(long))
    }

    @Test func testTextLongerThanTheLimitIsAnError() throws {
        var data = Data("<a>\n".utf8)
        data.append(Data(repeating: 0x61, count: XMLEventBuffer.maximumTextLength + 1))
        data.append(contentsOf: Data("</a>".utf8))
        let error = try #require(throws: XMLError.self) { try events(of: data) }
        #expect(error.message == "text longer than 10000000 bytes")
        #expect(error.line == 2)
    }

    @Test func testStreamMatchesTheTreeOfARealModel() throws {
        let url = try #require(
            Bundle.module.url(
                forResource: "contents", withExtension: nil,
                subdirectory: "Fixtures/coredata/bnr-sample/Sample.xcdatamodeld/"
                    + "TestModel 2.xcdatamodel"))
        let tree = try XMLDocument(contentsOf: url).root
        let reader = try XMLStreamReader(contentsOf: url)
        var starts: [(String, Int, [XMLElement.Attribute])] = []
        while let event = try reader.next() {
            if case .startElement(let name, let attributes, let line) = event {
                starts.append((name, line, attributes))
            }
        }
        var elements = [tree]
        var stack = Array(tree.children.reversed())
        while let element = stack.popLast() {
            elements.append(element)
            stack.append(contentsOf: element.children.reversed())
        }
        #expect(starts.map(\.0) == elements.map(\.name))
        #expect(starts.map(\.1) == elements.map(\.line))
        #expect(starts.map(\.2) == elements.map(\.attributes))
    }

    @Test func testAdvanceLocatesTagsAtTheirOpeningBracket() throws {
        let url = FileManager.default.temporaryDirectory
            .appending(path: "strata-stream-\(UUID().uuidString).xml")
        try Data("<a>\n  <b>t&amp;u</b>\n  <c/>\n</a>".utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let reader = try XMLStreamReader(contentsOf: url)
        var seen: [String] = []
        while let kind = try reader.advance() {
            let location = reader.currentLocation
            let place = "\(location.line):\(location.column)@\(location.byteOffset)"
            switch kind {
            case .startElement: seen.append("<\(reader.currentName)> \(place)")
            case .endElement: seen.append("</\(reader.currentName)> \(location.line)")
            case .text: seen.append(reader.withCurrentText { String(decoding: $0, as: UTF8.self) })
            }
        }
        #expect(
            seen == [
                "<a> 1:1@0", "<b> 2:3@6", "t&u", "</b> 2", "<c> 3:3@23", "</c> 3", "</a> 4",
            ])
        #expect(reader.bytesRead == 32)
    }

    @Test func testMalformedXMLThrowsLocatedErrorAfterTheEventsBeforeIt() throws {
        let url = FileManager.default.temporaryDirectory
            .appending(path: "strata-stream-\(UUID().uuidString).xml")
        try Data("<a>\n<b>\n</a>".utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let reader = try XMLStreamReader(contentsOf: url)
        #expect(try reader.next() == .startElement(name: "a", attributes: [], line: 1))
        #expect(try reader.next() == .startElement(name: "b", attributes: [], line: 2))
        let error = try #require(throws: XMLError.self) { try reader.next() }
        #expect(
            error.description == "\(url.path):3:5: Opening and ending tag mismatch: b line 2 and a")
        // The error sticks.
        #expect(throws: XMLError.self) { try reader.next() }
    }

    @Test func testEmptyAndTruncatedFilesAreErrors() throws {
        #expect(try error(of: "").message == "Document is empty")
        #expect(try error(of: " \n ").message == "Document is empty")
        #expect(try error(of: "<a>").message == "Premature end of data before the root element")
        let garbage = try error(of: "garbage")
        #expect(
            garbage.description.hasSuffix(":1:1: Start tag expected, '<' not found"), "\(garbage)")
        let truncated = try error(of: "<a>\n  <b>")
        #expect(truncated.message == "Premature end of data in tag b line 2")
        #expect(truncated.line == 2)
    }

    @Test func testInvalidUTF8IsAnError() throws {
        var data = Data("<a>\n".utf8)
        data.append(contentsOf: [0xC3, 0x28, 0xFF])
        data.append(contentsOf: Data("</a>".utf8))
        let error = try #require(throws: XMLError.self) { try events(of: data) }
        #expect(error.line == 2)
        #expect(error.message.hasPrefix("Input is not proper UTF-8"))
    }

    @Test func testEntityDeclarationsAreRefusedBeforeAnyExpansion() throws {
        let xml = """
            <!DOCTYPE a [
            <!ENTITY x "xxxxxxxxxx">
            <!ENTITY y "&x;&x;&x;&x;&x;&x;&x;&x;&x;&x;">
            ]>
            <a>&y;</a>
            """
        let error = try error(of: xml)
        #expect(error.line == 2)
        #expect(error.message.hasPrefix("DTD declaration <!ENTITY x> is not allowed"))
    }

    @Test func testExternalEntityIsNeverRead() throws {
        let secretURL = FileManager.default.temporaryDirectory
            .appending(path: "strata-secret-\(UUID().uuidString).txt")
        let secret = "SECRET-\(UUID().uuidString)"
        try Data(secret.utf8).write(to: secretURL)
        defer { try? FileManager.default.removeItem(at: secretURL) }
        let documents = [
            "<!DOCTYPE a [<!ENTITY x SYSTEM \"\(secretURL.absoluteString)\">]><a>&x;</a>",
            "<!DOCTYPE a SYSTEM \"\(secretURL.absoluteString)\"><a>&x;</a>",
        ]
        for xml in documents {
            do {
                let events = try events(of: xml)
                #expect(!String(describing: events).contains(secret))
            } catch {
                #expect(!String(describing: error).contains(secret))
            }
        }
    }

    @Test func testExternalDTDURLCausesNoNetworkAccess() throws {
        let xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://192.0.2.1/x.dtd">
            <plist version="1.0"><true/></plist>
            """
        #expect(try events(of: xml).count == 4)
    }

    @Test func testMissingFileNamesThePath() throws {
        let url = FileManager.default.temporaryDirectory.appending(path: "no-such-\(UUID()).xml")
        let error = try #require(throws: XMLError.self) { try XMLStreamReader(contentsOf: url) }
        #expect(error.file == url.path)
        #expect(error.line == nil)
    }
}
