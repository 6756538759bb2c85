import Foundation

/// A parsed XML document: its root element and where it came from.
///
/// Parsing is safe on untrusted input: nothing is fetched from the network,
/// no DTD is loaded, and documents that declare entities or attribute
/// defaults in an internal DTD subset are refused, so entity-expansion bombs
/// and external entities cannot work. A `DOCTYPE` that only names an external
/// DTD, as property lists do, is accepted and the DTD is not read.
///
/// ```swift
/// let document = try XMLDocument(contentsOf: modelURL.appending(path: "contents"))
/// let entities = document.root.children(named: "entity")
/// ```
public struct XMLDocument: Hashable, Sendable {
    /// The document element.
    public let root: XMLElement
    /// The file path, or the label given for in-memory data; errors use it.
    public let source: String

    /// Creates a document from an element tree.
    ///
    /// - Parameters:
    ///   - root: The document element.
    ///   - source: A file path or label for messages.
    public init(root: XMLElement, source: String) {
        self.root = root
        self.source = source
    }

    /// Reads and parses the XML file at `url`.
    ///
    /// - Parameter url: A file URL.
    /// - Throws: ``XMLError`` naming the file (and the line and column when
    ///   the XML is malformed) if the file cannot be read or parsed.
    public init(contentsOf url: URL) throws {
        let source = url.isFileURL ? url.path : url.absoluteString
        guard url.isFileURL else {
            throw XMLError(file: source, message: "only local files can be read")
        }
        let data: Data
        do {
            data = try Data(contentsOf: url, options: .mappedIfSafe)
        } catch {
            throw XMLError(file: source, message: "cannot read the file (\(Self.reason(error)))")
        }
        try self.init(data: data, source: source)
    }

    /// Parses XML held in memory.
    ///
    /// The encoding comes from the byte-order mark or the XML declaration,
    /// and is UTF-8 when neither gives one.
    ///
    /// - Parameters:
    ///   - data: The XML bytes.
    ///   - source: A file path or label for error messages.
    /// - Throws: ``XMLError`` with the line and column of the first error.
    public init(data: Data, source: String) throws {
        let context = try XMLParserContext(source: source)
        let tree = try context.parseDocument(data)
        self.init(root: try tree.rootElement(), source: source)
    }

    /// Parses XML held in a string.
    ///
    /// - Parameters:
    ///   - string: The XML text. An `encoding` in its XML declaration must
    ///     say UTF-8 (or be left out), since the string is parsed as UTF-8.
    ///   - source: A label for error messages.
    /// - Throws: ``XMLError`` with the line and column of the first error.
    public init(string: String, source: String) throws {
        try self.init(data: Data(string.utf8), source: source)
    }

    /// A short reason for a read failure, without the path it repeats.
    private static func reason(_ error: any Error) -> String {
        switch (error as? CocoaError)?.code {
        case .fileReadNoSuchFile?: return "no such file"
        case .fileReadNoPermission?: return "permission denied"
        default: return (error as NSError).localizedDescription
        }
    }
}
