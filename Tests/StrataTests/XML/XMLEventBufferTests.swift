import Foundation
import Testing

@testable import Strata
@testable import StrataCore

struct XMLEventBufferTests {
    private func append(_ text: String, to buffer: XMLEventBuffer) {
        Array(text.utf8).withUnsafeBufferPointer { buffer.appendText($0) }
    }

    private func drain(_ buffer: XMLEventBuffer) -> [XMLStreamReader.Event] {
        var events: [XMLStreamReader.Event] = []
        while let event = buffer.take() { events.append(event) }
        return events
    }

    @Test func testTextPiecesAreJoinedBeforeTheNextTag() {
        let buffer = XMLEventBuffer()
        buffer.append(.startElement(name: "a", attributes: [], line: 1))
        append("é", to: buffer)
        append("t\u{e9}", to: buffer)
        #expect(drain(buffer) == [.startElement(name: "a", attributes: [], line: 1)])
        buffer.append(.endElement(name: "a", line: 1))
        #expect(drain(buffer) == [.text("été"), .endElement(name: "a", line: 1)])
        #expect(buffer.take() == nil)
    }

    @Test func testWhitespaceBetweenTagsIsDroppedButNotAsWholeContent() {
        let buffer = XMLEventBuffer()
        buffer.append(.startElement(name: "a", attributes: [], line: 1))
        append("\n  ", to: buffer)
        buffer.append(.startElement(name: "b", attributes: [], line: 2))
        append(" \t", to: buffer)
        buffer.append(.endElement(name: "b", line: 2))
        append("\r\n", to: buffer)
        buffer.append(.endElement(name: "a", line: 3))
        #expect(
            drain(buffer) == [
                .startElement(name: "a", attributes: [], line: 1),
                .startElement(name: "b", attributes: [], line: 2),
                .text(" \t"),
                .endElement(name: "b", line: 2),
                .endElement(name: "a", line: 3),
            ])
    }

    @Test func testOpenElementsFollowTheTags() {
        let buffer = XMLEventBuffer()
        #expect(!buffer.sawRootElement)
        buffer.append(.startElement(name: "a", attributes: [], line: 1))
        buffer.append(.startElement(name: "b", attributes: [], line: 2))
        #expect(buffer.openElements.map(\.name) == ["a", "b"])
        buffer.append(.endElement(name: "b", line: 2))
        #expect(buffer.openElements.map(\.line) == [1])
        #expect(buffer.sawRootElement)
    }

    @Test func testTextPastTheLimitSetsOverflowAndIsNotKept() {
        let buffer = XMLEventBuffer()
        let piece = [UInt8](repeating: 0x61, count: XMLEventBuffer.maximumTextLength / 2 + 1)
        piece.withUnsafeBufferPointer { buffer.appendText($0) }
        #expect(!buffer.textOverflowed)
        piece.withUnsafeBufferPointer { buffer.appendText($0) }
        #expect(buffer.textOverflowed)
    }
}
