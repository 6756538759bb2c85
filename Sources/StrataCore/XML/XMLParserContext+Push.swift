import CLibXML2
import Foundation

// MARK: - Push parsing into an event buffer

extension XMLParserContext {
    /// Creates a push-parser context whose SAX callbacks queue events in
    /// `buffer` instead of building a tree.
    ///
    /// The handler sets only the callbacks listed here: with no
    /// `internalSubset`, `externalSubset`, `resolveEntity` or `getEntity`,
    /// nothing outside the input can be read. The guards and the error
    /// handler of ``init(handle:source:)`` are added on top.
    ///
    /// - Throws: ``XMLError`` when libxml2 cannot be loaded or cannot
    ///   allocate the context.
    static func pushContext(source: String, buffer: XMLEventBuffer) throws -> XMLParserContext {
        _ = libXMLInitialization
        var handler = xmlSAXHandler()
        handler.initialized = XML_SAX2_MAGIC
        handler.startElementNs = {
            ctx, localName, prefix, _, namespaceCount, _, count, _, attributes in
            guard let context = XMLParserContext.owning(ctx), let buffer = context.eventBuffer
            else { return }
            var list: [XMLElement.Attribute] = []
            if let attributes {
                // Five pointers per attribute: local name, prefix, URI, and
                // the value as a [start, end) range that is not terminated.
                for index in 0..<Int(max(count, 0)) {
                    let base = index * 5
                    guard let start = attributes[base + 3], let end = attributes[base + 4] else {
                        continue
                    }
                    let bytes = UnsafeBufferPointer(start: start, count: end - start)
                    list.append(
                        XMLElement.Attribute(
                            name: XMLNameTable.decode(attributes[base], attributes[base + 1]),
                            value: XMLParserContext.decodedAttributeValue(bytes)))
                }
            }
            let name = context.names.name(local: localName, prefix: prefix)
            // A bare `<name` ends where the parser is; find its `<`.
            let bare = count == 0 && namespaceCount == 0 && prefix == nil
            let location = context.eventLocation(
                before: bare ? localName : nil, opening: "<", closing: nil)
            buffer.appendTag(.startElement, name: name, attributes: list, at: location)
        }
        handler.endElementNs = { ctx, localName, prefix, _ in
            guard let context = XMLParserContext.owning(ctx), let buffer = context.eventBuffer
            else { return }
            let name = context.names.name(local: localName, prefix: prefix)
            let location = context.eventLocation(
                before: prefix == nil ? localName : nil, opening: "</", closing: ">")
            buffer.appendTag(.endElement, name: name, at: location)
        }
        handler.characters = { ctx, bytes, length in
            guard let bytes, let context = XMLParserContext.owning(ctx),
                let buffer = context.eventBuffer
            else { return }
            let text = UnsafeBufferPointer(start: bytes, count: Int(max(length, 0)))
            buffer.appendText(
                text, at: context.eventLocation(before: nil, opening: "", closing: nil))
            if buffer.textOverflowed {
                context.stop(message: "text longer than \(XMLEventBuffer.maximumTextLength) bytes")
            }
        }
        handler.cdataBlock = handler.characters
        guard let handle = strata_xmlCreatePushParserCtxt(&handler, nil, nil, 0, source) else {
            throw XMLError(file: source, message: creationFailure)
        }
        let context = XMLParserContext(handle: handle, source: source)
        context.eventBuffer = buffer
        // Only the options left over after the call matter; the return value
        // lists options libxml2 did not recognise, and it knows all of ours.
        _ = strata_xmlCtxtUseOptions(handle, options)
        return context
    }

    /// Feeds the next piece of input; `bytes` empty with `isLast` ends it.
    /// Errors are kept in ``pushFailure``, so that the events parsed before
    /// them can still be handed out.
    func push(_ bytes: UnsafeRawBufferPointer, isLast: Bool) {
        guard pushFailure == nil else { return }
        if pushedOnlyWhitespace {
            pushedOnlyWhitespace = bytes.allSatisfy { $0 == 0x20 || (0x09...0x0D).contains($0) }
        }
        let chunk = bytes.baseAddress?.assumingMemoryBound(to: CChar.self)
        // The code repeats the error the handler already recorded.
        _ = strata_xmlParseChunk(handle, chunk, CInt(bytes.count), isLast ? 1 : 0)
        guard var error = firstError, let buffer = eventBuffer else { return }
        // The push parser words some errors differently from the tree parser,
        // and less clearly; say what the tree parser says instead.
        switch Int(firstErrorCode) {
        case Int(XML_ERR_DOCUMENT_EMPTY.rawValue) where !pushedOnlyWhitespace:
            error.message = "Start tag expected, '<' not found"
        case Int(XML_ERR_DOCUMENT_END.rawValue) where isLast:
            // "Extra content at the end of the document", for any document
            // that is unfinished at the end of the input.
            if let open = buffer.openElements.last {
                error.message = "Premature end of data in tag \(open.name) line \(open.line)"
            } else if !buffer.sawRootElement {
                error.message =
                    pushedOnlyWhitespace
                    ? "Document is empty" : "Premature end of data before the root element"
            } else {
                return
            }
        default:
            return
        }
        rewordedError = error
    }

    /// Where the parser is, as the place of an event. When `name` is given
    /// and the input just before the parser is `opening`, `name` and then
    /// `closing`, the place is moved back to the start of that tag.
    func eventLocation(
        before name: UnsafePointer<xmlChar>?, opening: StaticString, closing: StaticString?
    ) -> XMLEventLocation {
        guard let input = handle.pointee.input else { return .unknown }
        var line = Int(input.pointee.line)
        var column = Int(input.pointee.col)
        guard let cur = input.pointee.cur, let base = input.pointee.base else {
            return XMLEventLocation(line: max(line, 0), column: max(column, 0), byteOffset: 0)
        }
        var offset = Int64(input.pointee.consumed) + Int64(cur - base)
        if let name {
            let tagLength =
                opening.utf8CodeUnitCount + Int(strata_xmlStrlen(name))
                + (closing?.utf8CodeUnitCount ?? 0)
            if cur - base >= tagLength, column > tagLength,
                Self.matches(
                    cur - tagLength, opening: opening, name: name, closing: closing)
            {
                // Columns count characters: leave out UTF-8 continuation bytes.
                let tag = UnsafeBufferPointer(start: cur - tagLength, count: tagLength)
                column -= tag.reduce(0) { $0 + ($1 & 0xC0 == 0x80 ? 0 : 1) }
                offset -= Int64(tagLength)
            }
        }
        line = max(line, 0)
        return XMLEventLocation(line: line, column: max(column, 0), byteOffset: offset)
    }

    /// Whether the bytes at `start` are `opening`, `name`, `closing`.
    private static func matches(
        _ start: UnsafePointer<xmlChar>, opening: StaticString, name: UnsafePointer<xmlChar>,
        closing: StaticString?
    ) -> Bool {
        let nameLength = Int(strata_xmlStrlen(name))
        guard memcmp(start, opening.utf8Start, opening.utf8CodeUnitCount) == 0,
            memcmp(start + opening.utf8CodeUnitCount, name, nameLength) == 0
        else { return false }
        guard let closing else { return true }
        return memcmp(
            start + opening.utf8CodeUnitCount + nameLength, closing.utf8Start,
            closing.utf8CodeUnitCount) == 0
    }

    /// The error that ended a push parse, if any.
    var pushFailure: XMLError? {
        rejection ?? rewordedError ?? firstError
    }

    /// Without entity substitution, libxml2 hands SAX2 attribute values with
    /// every `&` (from `&amp;` or `&#38;`) escaped as `&#38;`, and nothing
    /// else escaped, so undoing that one escape gives the value.
    private static func decodedAttributeValue(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        let raw = String(decoding: bytes, as: UTF8.self)
        guard raw.contains("&") else { return raw }
        return raw.replacingOccurrences(of: "&#38;", with: "&")
    }
}
