/// A record or an input that cannot be imported, located in its file.
///
/// ```swift
/// do {
///     _ = try importer.run(reader)
/// } catch let error as ImportError where error.code == .invalidValue {
///     print(error.position.line, error.message)
/// }
/// ```
public struct ImportError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What kind of problem it is.
    public enum Code: String, Hashable, Sendable {
        /// The file cannot be opened or read.
        case unreadable
        /// Text that is not valid in the file's encoding (invalid or overlong
        /// UTF-8, a NUL byte, an unpaired UTF-16 surrogate).
        case encoding
        /// The file breaks its format's syntax (an unclosed quote, malformed
        /// XML or JSON).
        case syntax
        /// Well-formed, but not shaped as records (a plist whose root is a
        /// string, a ragged CSV row).
        case structure
        /// A field, record or nesting larger than the reader's limits.
        case tooLarge
        /// A field that matches no attribute or relationship.
        case unknownField
        /// A required attribute with no value in the record.
        case missingField
        /// A value that does not convert to its attribute's type.
        case invalidValue
        /// A value that breaks a rule of the schema (range, length, pattern,
        /// uniqueness).
        case validation
        /// A path (to a media file) that leaves the input's folder.
        case unsafePath
        /// The store refused the write.
        case store
    }

    /// What kind of problem it is.
    public var code: Code
    /// Where in the input.
    public var position: SourcePosition
    /// What was found and what was expected, in plain words.
    public var message: String

    /// Creates an error.
    public init(_ code: Code, at position: SourcePosition, _ message: String) {
        self.code = code
        self.position = position
        self.message = message
    }

    /// `file:line:column: message`.
    public var description: String {
        position.file.isEmpty ? message : "\(position): \(message)"
    }
}
