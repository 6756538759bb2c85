import CLibXML2
import Foundation

/// The C handle of a libxml2 parser context (`xmlParserCtxtPtr`).
typealias LibXMLParserContextHandle = xmlParserCtxtPtr

/// Calls `xmlInitParser` once per process before the first context is made;
/// libxml2 asks for that when several threads parse at once.
let libXMLInitialization: Void = strata_xmlInitParser()

/// One parse of one document with libxml2, set up to be safe on untrusted
/// input, collecting the first error with its place.
///
/// Safety comes from the options and from three SAX callbacks:
///
/// - `XML_PARSE_NONET`: nothing is fetched from the network.
/// - No `XML_PARSE_NOENT`, `DTDLOAD`, `DTDATTR`, `DTDVALID` or `HUGE`: entities
///   are not substituted, external DTDs are not loaded, and libxml2's size
///   and depth limits (256 levels, 10 MB text nodes) stay on.
/// - Entity and attribute-list declarations in an internal DTD subset stop
///   the parse with an error. That rules out entity-expansion bombs ("billion
///   laughs") and external entities (`SYSTEM "file:///etc/passwd"`) before
///   any is referenced, and attribute defaults cannot inject attributes.
///   Model files and property lists never declare them.
/// - Errors go to a structured handler on this context, never to stderr
///   (`XML_PARSE_NOERROR | XML_PARSE_NOWARNING` as well); warnings are
///   ignored, and the first error or fatal error is kept.
final class XMLParserContext {
    /// The options of every parse. `NOERROR`/`NOWARNING` only back up the
    /// structured handler, which receives errors either way.
    static let options = CInt(
        XML_PARSE_NONET.rawValue | XML_PARSE_NOBLANKS.rawValue | XML_PARSE_BIG_LINES.rawValue
            | XML_PARSE_NOERROR.rawValue | XML_PARSE_NOWARNING.rawValue
    )

    let handle: LibXMLParserContextHandle
    /// The file path or label used in errors.
    let source: String
    /// The first error or fatal error libxml2 reported.
    private(set) var firstError: XMLError?
    /// libxml2's code for ``firstError`` (an `xmlParserErrors` value).
    private(set) var firstErrorCode: CInt = 0
    /// Set when this layer stopped the parse: the document declared
    /// something it refuses, or went past one of its limits.
    private(set) var rejection: XMLError?
    /// ``firstError`` reworded by a push parse where the push parser words
    /// it less clearly than the tree parser.
    var rewordedError: XMLError?
    /// Whether a push parse was given nothing but white space so far.
    var pushedOnlyWhitespace = true
    /// Where a push parse queues its events; nil for a tree parse.
    var eventBuffer: XMLEventBuffer?
    /// The element names of a push parse decoded so far.
    @exclusivity(unchecked) var names = XMLNameTable()

    /// Creates a context for a tree parse (`xmlCtxtReadMemory`).
    ///
    /// - Throws: ``XMLError`` when libxml2 cannot be loaded or cannot
    ///   allocate the context.
    convenience init(source: String) throws {
        _ = libXMLInitialization
        guard let handle = strata_xmlNewParserCtxt() else {
            throw XMLError(file: source, message: Self.creationFailure)
        }
        self.init(handle: handle, source: source)
    }

    /// Why no context could be made: libxml2 (loaded on first use) is
    /// missing, or it could not allocate one.
    static var creationFailure: String {
        strata_xml_load_error().map { String(cString: $0) } ?? "cannot create an XML parser"
    }

    /// Takes ownership of `handle` (freed in `deinit`) and installs the
    /// error handler and the DTD guards on its SAX handler.
    init(handle: LibXMLParserContextHandle, source: String) {
        _ = libXMLInitialization
        self.handle = handle
        self.source = source
        handle.pointee._private = Unmanaged.passUnretained(self).toOpaque()
        guard let sax = handle.pointee.sax else { return }
        sax.pointee.serror = { userData, error in
            guard let error, let context = XMLParserContext.owning(userData) else { return }
            context.record(error.pointee)
        }
        sax.pointee.entityDecl = { ctx, name, _, _, _, _ in
            XMLParserContext.reject(ctx, declaration: "<!ENTITY", name: name)
        }
        sax.pointee.unparsedEntityDecl = { ctx, name, _, _, _ in
            XMLParserContext.reject(ctx, declaration: "<!ENTITY", name: name)
        }
        sax.pointee.attributeDecl = { ctx, element, _, _, _, _, tree in
            // The callback owns the enumeration of allowed values.
            if let tree { strata_xmlFreeEnumeration(tree) }
            XMLParserContext.reject(ctx, declaration: "<!ATTLIST", name: element)
        }
    }

    deinit {
        handle.pointee._private = nil
        strata_xmlFreeParserCtxt(handle)
    }

    /// The context whose handle is `userData`; libxml2 passes the parser
    /// context as user data unless told otherwise, and we never tell it.
    static func owning(_ userData: UnsafeMutableRawPointer?) -> XMLParserContext? {
        guard let userData else { return nil }
        let handle = userData.assumingMemoryBound(to: xmlParserCtxt.self)
        guard let context = handle.pointee._private else { return nil }
        return Unmanaged<XMLParserContext>.fromOpaque(context).takeUnretainedValue()
    }

    // MARK: - Parsing

    /// Parses `data` into a libxml2 document.
    ///
    /// - Throws: ``XMLError`` for malformed XML or a refused declaration.
    func parseDocument(_ data: Data) throws -> XMLTree {
        guard data.count < Int(CInt.max) else {
            throw XMLError(file: source, message: "file is too large for the XML parser")
        }
        let document = data.withUnsafeBytes { buffer -> xmlDocPtr? in
            // An empty Data may have no base address; libxml2 then reads
            // zero bytes of a valid pointer and says the document is empty.
            withUnsafePointer(to: 0 as CChar) { empty in
                let bytes = buffer.baseAddress?.assumingMemoryBound(to: CChar.self) ?? empty
                return strata_xmlCtxtReadMemory(
                    handle, bytes, CInt(buffer.count), source, nil, Self.options)
            }
        }
        guard let document else {
            throw rejection ?? firstError ?? error(message: "the document is not well-formed")
        }
        let tree = XMLTree(taking: document, source: source)
        if let failure = rejection ?? firstError { throw failure }
        return tree
    }

    // MARK: - Errors

    /// An error at the parser's current place.
    func error(message: String) -> XMLError {
        let (line, column) = position
        return XMLError(file: source, line: line, column: column, message: message)
    }

    /// The line and column the parser has reached, when it has an input.
    var position: (line: Int?, column: Int?) {
        guard let input = handle.pointee.input else { return (nil, nil) }
        let line = Int(input.pointee.line)
        let column = Int(input.pointee.col)
        return (line > 0 ? line : nil, column > 0 ? column : nil)
    }

    /// Keeps the first error; warnings (such as a relative namespace URI)
    /// do not make a document unusable.
    private func record(_ error: xmlError) {
        guard firstError == nil, error.level.rawValue >= XML_ERR_ERROR.rawValue else { return }
        firstError = XMLError(
            file: source,
            line: error.line > 0 ? Int(error.line) : nil,
            column: error.int2 > 0 ? Int(error.int2) : nil,
            message: Self.message(of: error))
        firstErrorCode = error.code
    }

    /// libxml2's message on one line: it ends messages with a newline and
    /// puts the offending bytes of bad UTF-8 on a second line.
    private static func message(of error: xmlError) -> String {
        guard let message = error.message else {
            return "malformed XML (libxml2 error \(error.code))"
        }
        return String(cString: message)
            .split(whereSeparator: \.isNewline)
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .joined(separator: " ")
    }

    /// Records a refused DTD declaration and stops the parser where it is.
    private static func reject(
        _ ctx: UnsafeMutableRawPointer?, declaration: String, name: UnsafePointer<xmlChar>?
    ) {
        let name = name.map { String(cString: $0) } ?? ""
        owning(ctx)?.stop(
            message: "DTD declaration \(declaration) \(name)> is not allowed;"
                + " entities and attribute defaults are not supported")
    }

    /// Records an error at the current place (unless one was recorded) and
    /// stops the parser; libxml2 then makes no more callbacks.
    func stop(message: String) {
        if rejection == nil { rejection = error(message: message) }
        strata_xmlStopParser(handle)
    }
}
