import Foundation

/// The events a push parse produced and the stream reader has not handed out
/// yet; the SAX callbacks fill it, ``XMLStreamReader/next()`` drains it.
///
/// Adjacent character data is joined into one `.text` event, which is only
/// queued when the next tag arrives, so text split across input chunks still
/// comes out whole. A run of whitespace only is dropped, unless it is the
/// whole content of an element (`<string> </string>`), which is what the
/// tree parser's `XML_PARSE_NOBLANKS` does for documents without mixed
/// content; libxml2 cannot apply that rule itself without a tree.
final class XMLEventBuffer {
    /// The longest text event, in UTF-8 bytes: libxml2's own limit for a
    /// text node when `XML_PARSE_HUGE` is off (`XML_MAX_TEXT_LENGTH`).
    static let maximumTextLength = 10_000_000

    private var events: [XMLStreamReader.Event] = []
    private var head = 0
    private var text: [UInt8] = []
    private var lastTagWasStart = false
    /// Set when text grew past ``maximumTextLength``.
    private(set) var textOverflowed = false
    /// The elements started and not yet ended, outermost first. Its size is
    /// bounded by libxml2's nesting limit (256).
    private(set) var openElements: [(name: String, line: Int)] = []
    /// Whether a start tag was seen.
    private(set) var sawRootElement = false

    /// Adds character data to the text being collected.
    func appendText(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard !textOverflowed else { return }
        guard text.count + bytes.count <= Self.maximumTextLength else {
            textOverflowed = true
            return
        }
        text.append(contentsOf: bytes)
    }

    /// Queues a tag event after any text collected before it.
    func append(_ event: XMLStreamReader.Event) {
        let isStart: Bool
        switch event {
        case .startElement(let name, _, let line):
            openElements.append((name, line))
            sawRootElement = true
            isStart = true
        case .endElement:
            _ = openElements.popLast()
            isStart = false
        case .text:
            isStart = false
        }
        let isWholeContent = lastTagWasStart && !isStart
        if !text.isEmpty && (isWholeContent || !Self.isWhitespace(text)) {
            events.append(.text(String(decoding: text, as: UTF8.self)))
        }
        text.removeAll(keepingCapacity: true)
        lastTagWasStart = isStart
        events.append(event)
    }

    /// The oldest queued event, or nil when none is waiting.
    func take() -> XMLStreamReader.Event? {
        guard head < events.count else { return nil }
        let event = events[head]
        head += 1
        if head == events.count {
            // Drained: reuse the storage, so memory stays at one chunk's events.
            events.removeAll(keepingCapacity: true)
            head = 0
        }
        return event
    }

    /// Whether `bytes` are all XML white space (space, tab, CR, LF).
    private static func isWhitespace(_ bytes: [UInt8]) -> Bool {
        bytes.allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
    }
}
