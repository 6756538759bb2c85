import Foundation

/// Reads an XML file as a stream of events, without building a tree, so
/// memory stays bounded however large the file is.
///
/// The file is read in 64 KiB chunks and fed to a libxml2 push parser with
/// the same safety rules as ``XMLDocument``: no network, no DTD loading, no
/// entity substitution, and entity or attribute-list declarations refused.
/// Text, including CDATA, comes as one `.text` event per run of character
/// data between two tags; a run of white space only is dropped unless it is
/// the whole content of an element. Comments and
/// processing instructions are skipped.
///
/// ```swift
/// let reader = try XMLStreamReader(contentsOf: plistURL)
/// while let event = try reader.next() {
///     if case .startElement(let name, _, let line) = event { print(name, line) }
/// }
/// ```
///
/// A reader is used from one thread at a time.
public final class XMLStreamReader {
    /// One thing found in the document, in document order.
    public enum Event: Hashable, Sendable {
        /// A start tag (or an empty-element tag, which is followed at once by
        /// its `endElement`). `line` is where the tag ends.
        case startElement(name: String, attributes: [XMLElement.Attribute], line: Int)
        /// An end tag; `line` is where it ends.
        case endElement(name: String, line: Int)
        /// Character data and CDATA between two tags, joined.
        case text(String)
    }

    /// The size of each read from the file.
    static let chunkSize = 64 * 1024

    /// The file path; errors use it.
    public let source: String

    private let file: FileHandle
    private let buffer = XMLEventBuffer()
    private let context: XMLParserContext
    private var isFinished = false
    /// The bytes of the file fed to the parser so far.
    package private(set) var bytesRead: Int64 = 0

    /// Whether the parse stopped at a text longer than
    /// ``XMLEventBuffer/maximumTextLength``, so that readers can report a
    /// size limit rather than malformed XML.
    package var stoppedAtLongText: Bool { buffer.textOverflowed }

    /// Opens the XML file at `url` for reading; nothing is parsed yet.
    ///
    /// - Parameter url: A file URL.
    /// - Throws: ``XMLError`` naming the file when it cannot be opened.
    public init(contentsOf url: URL) throws {
        source = url.isFileURL ? url.path : url.absoluteString
        guard url.isFileURL else {
            throw XMLError(file: source, message: "only local files can be read")
        }
        do {
            file = try FileHandle(forReadingFrom: url)
        } catch {
            throw XMLError(
                file: source, message: "cannot read the file (no such file or no access)")
        }
        context = try XMLParserContext.pushContext(source: source, buffer: buffer)
    }

    deinit {
        // Nothing to report: the file was only read.
        try? file.close()
    }

    /// The next event, or nil after the end of the document.
    ///
    /// - Returns: The next event; nil once the whole document was read.
    /// - Throws: ``XMLError`` with the line and column of malformed XML, a
    ///   refused declaration, or a read failure. Events before the error
    ///   were returned; after it, every call throws the same error.
    public func next() throws -> Event? {
        while true {
            if let event = buffer.take() { return event }
            if let failure = context.pushFailure { throw failure }
            if isFinished { return nil }
            try readChunk()
        }
    }

    // MARK: - Events without values

    /// Moves to the next event without building an ``Event``: the
    /// `current…` members then describe it. Readers of large documents use
    /// this to look at text as bytes, allocating nothing per event.
    ///
    /// - Returns: The kind of the next event; nil once the whole document
    ///   was read.
    /// - Throws: What ``next()`` throws.
    package func advance() throws -> XMLEventKind? {
        while true {
            if buffer.advance() { return buffer.currentKind }
            if let failure = context.pushFailure { throw failure }
            if isFinished { return nil }
            try readChunk()
        }
    }

    /// The element name of the event ``advance()`` moved to; empty for text.
    package var currentName: String { buffer.currentName }

    /// The attributes of the start tag ``advance()`` moved to.
    var currentAttributes: [XMLElement.Attribute] { buffer.currentAttributes }

    /// Where the event ``advance()`` moved to is: for a tag, the line and
    /// column of its `<` when the tag has no attributes and sits in the
    /// parser's window, else of its end; for text, roughly where its first
    /// piece ends (libxml2 reports text after scanning it). The byte offset
    /// counts bytes of the UTF-8 text libxml2 parses, which is the file
    /// itself unless the file is in another encoding.
    package var currentLocation: XMLEventLocation { buffer.currentLocation }

    /// Calls `body` with the UTF-8 bytes of the text event ``advance()``
    /// moved to (empty for tags), valid only inside `body`.
    package func withCurrentText<Result>(
        _ body: (UnsafeBufferPointer<UInt8>) throws -> Result
    ) rethrows -> Result {
        try buffer.withCurrentText(body)
    }

    /// Feeds one chunk to the parser, or ends the input at end of file.
    private func readChunk() throws {
        let data: Data
        do {
            data = try file.read(upToCount: Self.chunkSize) ?? Data()
        } catch {
            throw XMLError(file: source, message: "cannot read the file (\(error))")
        }
        isFinished = data.isEmpty
        bytesRead += Int64(data.count)
        data.withUnsafeBytes { bytes in
            context.push(bytes, isLast: isFinished)
        }
    }
}
