import Foundation

/// What kind of event an ``XMLEventBuffer`` entry is.
package enum XMLEventKind: UInt8, Sendable {
    /// A start tag (or an empty-element tag, followed at once by its end).
    case startElement
    /// An end tag.
    case endElement
    /// Character data and CDATA between two tags, joined.
    case text
}

/// Where an event was found in the document.
package struct XMLEventLocation: Hashable, Sendable {
    /// The 1-based line; 0 when unknown.
    package var line: Int
    /// The 1-based column; 0 when unknown.
    package var column: Int
    /// The offset from the start of the document in bytes; 0 when unknown.
    package var byteOffset: Int64

    /// No known place.
    static let unknown = XMLEventLocation(line: 0, column: 0, byteOffset: 0)
}

/// The events a push parse produced and the stream reader has not handed out
/// yet; the SAX callbacks fill it, ``XMLStreamReader/next()`` drains it.
///
/// Adjacent character data is joined into one `.text` event, which is only
/// queued when the next tag arrives, so text split across input chunks still
/// comes out whole. A run of whitespace only is dropped, unless it is the
/// whole content of an element (`<string> </string>`), which is what the
/// tree parser's `XML_PARSE_NOBLANKS` does for documents without mixed
/// content; libxml2 cannot apply that rule itself without a tree.
///
/// Events are kept in a compact form: element names are shared strings and
/// text is a range of one byte buffer, so queueing an event allocates
/// nothing in the steady state. The buffer is only ever used from one
/// thread, and its callbacks never re-enter it, which is why its hot
/// properties opt out of run-time exclusivity checks (they cost a third of
/// the time of a parse).
final class XMLEventBuffer {
    /// The longest text event, in UTF-8 bytes: libxml2's own limit for a
    /// text node when `XML_PARSE_HUGE` is off (`XML_MAX_TEXT_LENGTH`).
    static let maximumTextLength = 10_000_000

    /// One queued event.
    struct Entry {
        var kind: XMLEventKind
        /// The element name; empty for text.
        var name: String
        var attributes: [XMLElement.Attribute]
        /// The text's bytes in ``XMLEventBuffer/bytes``; empty for tags.
        var text: Range<Int>
        var location: XMLEventLocation
    }

    @exclusivity(unchecked) private var entries: [Entry] = []
    /// The next entry to hand out.
    @exclusivity(unchecked) private var head = 0
    /// The entry handed out last, or -1.
    @exclusivity(unchecked) private var current = -1
    /// The text of queued events, then the run of text being collected.
    @exclusivity(unchecked) private var bytes: [UInt8] = []
    /// Where the run of text being collected starts in ``bytes``.
    @exclusivity(unchecked) private var runStart = 0
    @exclusivity(unchecked) private var runLocation = XMLEventLocation.unknown
    @exclusivity(unchecked) private var lastTagWasStart = false
    /// Set when text grew past ``maximumTextLength``.
    private(set) var textOverflowed = false
    /// The elements started and not yet ended, outermost first. Its size is
    /// bounded by libxml2's nesting limit (256).
    @exclusivity(unchecked) private(set) var openElements: [(name: String, line: Int)] = []
    /// Whether a start tag was seen.
    private(set) var sawRootElement = false

    // MARK: - Filling

    /// Adds character data to the text being collected.
    ///
    /// - Parameters:
    ///   - bytes: The next piece of the text, in UTF-8.
    ///   - location: Where the parser is; kept for the first piece of a run.
    func appendText(_ bytes: UnsafeBufferPointer<UInt8>, at location: XMLEventLocation = .unknown) {
        guard !textOverflowed else { return }
        let runCount = self.bytes.count - runStart
        guard runCount + bytes.count <= Self.maximumTextLength else {
            textOverflowed = true
            return
        }
        if runCount == 0 { runLocation = location }
        self.bytes.append(contentsOf: bytes)
    }

    /// Queues a tag after any text collected before it.
    func appendTag(
        _ kind: XMLEventKind, name: String, attributes: [XMLElement.Attribute] = [],
        at location: XMLEventLocation
    ) {
        let isStart = kind == .startElement
        if isStart {
            openElements.append((name, location.line))
            sawRootElement = true
        } else {
            _ = openElements.popLast()
        }
        if bytes.count > runStart {
            let isWholeContent = lastTagWasStart && !isStart
            if isWholeContent || !Self.isWhitespace(bytes[runStart...]) {
                entries.append(
                    Entry(
                        kind: .text, name: "", attributes: [], text: runStart..<bytes.count,
                        location: runLocation))
                runStart = bytes.count
            } else {
                bytes.removeSubrange(runStart...)
            }
        }
        lastTagWasStart = isStart
        entries.append(
            Entry(kind: kind, name: name, attributes: attributes, text: 0..<0, location: location))
    }

    /// Queues an event after any text collected before it; `.text` events
    /// are added to the text being collected.
    func append(_ event: XMLStreamReader.Event) {
        switch event {
        case .startElement(let name, let attributes, let line):
            appendTag(
                .startElement, name: name, attributes: attributes,
                at: XMLEventLocation(line: line, column: 0, byteOffset: 0))
        case .endElement(let name, let line):
            appendTag(
                .endElement, name: name, at: XMLEventLocation(line: line, column: 0, byteOffset: 0))
        case .text(let text):
            var text = text
            text.withUTF8 { appendText($0) }
        }
    }

    // MARK: - Draining

    /// Moves to the oldest queued event, which the `current…` properties
    /// then describe; false when none is waiting.
    ///
    /// The text of the event handed out before stays valid until this call:
    /// when the queue is drained, its storage is reused.
    func advance() -> Bool {
        guard head < entries.count else {
            // Drained: reuse the storage, so memory stays at one chunk's
            // events, keeping only the run of text still being collected.
            entries.removeAll(keepingCapacity: true)
            head = 0
            current = -1
            if runStart > 0 {
                bytes.removeSubrange(..<runStart)
                runStart = 0
            }
            return false
        }
        current = head
        head += 1
        return true
    }

    // Between events (before the first, after the last, after an error)
    // the `current…` members describe an empty text event.

    /// The kind of the current event.
    var currentKind: XMLEventKind { current >= 0 ? entries[current].kind : .text }
    /// The element name of the current event; empty for text.
    var currentName: String { current >= 0 ? entries[current].name : "" }
    /// The attributes of the current start tag.
    var currentAttributes: [XMLElement.Attribute] {
        current >= 0 ? entries[current].attributes : []
    }
    /// Where the current event is (see ``XMLStreamReader/currentLocation``).
    var currentLocation: XMLEventLocation {
        current >= 0 ? entries[current].location : .unknown
    }

    /// Calls `body` with the UTF-8 bytes of the current event's text, which
    /// are empty for tags; the bytes are valid only inside `body`.
    func withCurrentText<Result>(
        _ body: (UnsafeBufferPointer<UInt8>) throws -> Result
    ) rethrows -> Result {
        let range = current >= 0 ? entries[current].text : 0..<0
        return try bytes.withUnsafeBufferPointer {
            try body(UnsafeBufferPointer(rebasing: $0[range]))
        }
    }

    /// The oldest queued event, or nil when none is waiting.
    func take() -> XMLStreamReader.Event? {
        guard advance() else { return nil }
        let entry = entries[current]
        switch entry.kind {
        case .startElement:
            return .startElement(
                name: entry.name, attributes: entry.attributes, line: entry.location.line)
        case .endElement:
            return .endElement(name: entry.name, line: entry.location.line)
        case .text:
            return .text(withCurrentText { String(decoding: $0, as: UTF8.self) })
        }
    }

    /// Whether `bytes` are all XML white space (space, tab, CR, LF).
    private static func isWhitespace(_ bytes: ArraySlice<UInt8>) -> Bool {
        bytes.allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
    }
}
