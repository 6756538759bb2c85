import CLibXML2
import Foundation

/// The C handle of a parsed libxml2 document (`xmlDocPtr`).
typealias LibXMLDocumentHandle = xmlDocPtr

/// A parsed libxml2 document, owned until it is copied into Swift values.
final class XMLTree {
    private let handle: LibXMLDocumentHandle
    /// The file path or label used in errors.
    let source: String

    /// Takes ownership of `handle`; it is freed in `deinit`.
    init(taking handle: LibXMLDocumentHandle, source: String) {
        self.handle = handle
        self.source = source
    }

    deinit {
        strata_xmlFreeDoc(handle)
    }

    /// The root element as a Swift value.
    ///
    /// Recursion is bounded: libxml2 stops at 256 levels of nesting unless
    /// `XML_PARSE_HUGE` is set, and it never is.
    ///
    /// - Throws: ``XMLError`` when there is no root element, or an entity
    ///   reference was left unexpanded (only possible for undeclared
    ///   entities, which libxml2 already reports as errors).
    func rootElement() throws -> XMLElement {
        guard let root = strata_xmlDocGetRootElement(handle) else {
            throw XMLError(file: source, message: "the document has no root element")
        }
        return try element(root)
    }

    private func element(_ node: xmlNodePtr) throws -> XMLElement {
        var attributes: [XMLElement.Attribute] = []
        var attribute = node.pointee.properties
        while let current = attribute {
            let name = Self.qualifiedName(current.pointee.name, current.pointee.ns)
            let value = try characterData(current.pointee.children, in: node)
            attributes.append(XMLElement.Attribute(name: name, value: value))
            attribute = current.pointee.next
        }
        var children: [XMLElement] = []
        var child = node.pointee.children
        while let current = child {
            if current.pointee.type == XML_ELEMENT_NODE {
                children.append(try element(current))
            }
            child = current.pointee.next
        }
        return XMLElement(
            name: Self.qualifiedName(node.pointee.name, node.pointee.ns),
            attributes: attributes,
            children: children,
            text: try characterData(node.pointee.children, in: node),
            line: Int(strata_xmlGetLineNo(node)))
    }

    /// The text and CDATA nodes of a sibling list, concatenated.
    private func characterData(_ first: xmlNodePtr?, in element: xmlNodePtr) throws -> String {
        var text = ""
        var node = first
        while let current = node {
            let type = current.pointee.type
            if type == XML_TEXT_NODE || type == XML_CDATA_SECTION_NODE,
                let content = current.pointee.content
            {
                text += String(cString: content)
            } else if type == XML_ENTITY_REF_NODE {
                let name = current.pointee.name.map { String(cString: $0) } ?? ""
                throw XMLError(
                    file: source, line: Int(strata_xmlGetLineNo(element)),
                    message: "entity reference &\(name); is not supported")
            }
            node = current.pointee.next
        }
        return text
    }

    private static func qualifiedName(
        _ name: UnsafePointer<xmlChar>?, _ namespace: xmlNsPtr?
    ) -> String {
        let local = name.map { String(cString: $0) } ?? ""
        guard let prefix = namespace?.pointee.prefix else { return local }
        return String(cString: prefix) + ":" + local
    }
}
