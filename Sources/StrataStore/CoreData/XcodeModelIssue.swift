/// One problem or warning found while reading an Xcode model: the file, the
/// line and element it is about, and what is wrong.
///
/// ```
/// BookmarksModel 3.xcdatamodel/contents:12: <attribute name="x">: unknown attributeType "Strng"
/// ```
public struct XcodeModelIssue: Hashable, Sendable, CustomStringConvertible {
    /// The file, relative to the model bundle (`Model 2.xcdatamodel/contents`).
    public var file: String
    /// The line of the element (or of the malformed XML), when known.
    public var line: Int?
    /// The column of malformed XML, when known.
    public var column: Int?
    /// The element the issue is about, such as `<attribute name="x">`, when
    /// it is about one.
    public var element: String?
    /// What was found and what was expected.
    public var message: String

    /// Creates an issue.
    public init(
        file: String, line: Int? = nil, column: Int? = nil, element: String? = nil,
        message: String
    ) {
        self.file = file
        self.line = line
        self.column = column
        self.element = element
        self.message = message
    }

    /// `<file>:<line>[:<column>]: [<element>: ]<message>`, leaving out the
    /// parts not known.
    public var description: String {
        var text = file
        if let line {
            text += ":\(line)"
            if let column { text += ":\(column)" }
        }
        if let element { text += ": \(element)" }
        return text + ": " + message
    }
}
