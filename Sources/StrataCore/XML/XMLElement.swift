import Foundation

/// An element of a parsed XML document: its name, attributes, own text,
/// child elements and the line it starts on.
///
/// Elements are plain values, detached from libxml2. Comments and processing
/// instructions are dropped. Whitespace-only text between child elements is
/// dropped too (libxml2's `XML_PARSE_NOBLANKS`), so a container element's
/// ``text`` is empty rather than its indentation.
///
/// ```swift
/// let document = try XMLDocument(contentsOf: contentsURL)
/// for entity in document.root.children(named: "entity") {
///     print(entity[attribute: "name"] ?? "?", entity.line)
/// }
/// ```
public struct XMLElement: Hashable, Sendable {
    /// One attribute of an element, as written.
    public struct Attribute: Hashable, Sendable {
        /// The attribute's qualified name, such as `name` or `xml:lang`.
        public let name: String
        /// The attribute's value, with character references resolved.
        public let value: String

        /// Creates an attribute.
        ///
        /// - Parameters:
        ///   - name: The qualified name.
        ///   - value: The value.
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// The element's qualified name (`prefix:local` when it has a prefix).
    public let name: String
    /// The attributes in document order. Namespace declarations (`xmlns`,
    /// `xmlns:p`) are not listed.
    public let attributes: [Attribute]
    /// The child elements in document order.
    public let children: [XMLElement]
    /// The character data and CDATA sections directly inside this element,
    /// concatenated; text inside child elements is not included.
    public let text: String
    /// The 1-based line on which the element's start tag ends (the line it
    /// starts on unless the tag spans several lines).
    public let line: Int

    /// Creates an element.
    ///
    /// - Parameters:
    ///   - name: The qualified name.
    ///   - attributes: The attributes in order.
    ///   - children: The child elements in order.
    ///   - text: The element's own character data.
    ///   - line: The 1-based line of the element.
    public init(
        name: String,
        attributes: [Attribute] = [],
        children: [XMLElement] = [],
        text: String = "",
        line: Int = 0
    ) {
        self.name = name
        self.attributes = attributes
        self.children = children
        self.text = text
        self.line = line
    }

    /// The value of the first attribute named `name`, or nil.
    ///
    /// - Parameter name: The attribute's qualified name.
    public subscript(attribute name: String) -> String? {
        attributes.first { $0.name == name }?.value
    }
}
