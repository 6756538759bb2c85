import StrataCore

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

// MARK: - Matching

extension ImportError {
    /// Matches an error of code ``Code/unreadable``: `catch ImportError.unreadable`.
    public static let unreadable = Code.unreadable
    /// Matches an error of code ``Code/encoding``: `catch ImportError.encoding`.
    public static let encoding = Code.encoding
    /// Matches an error of code ``Code/syntax``: `catch ImportError.syntax`.
    public static let syntax = Code.syntax
    /// Matches an error of code ``Code/structure``: `catch ImportError.structure`.
    public static let structure = Code.structure
    /// Matches an error of code ``Code/tooLarge``: `catch ImportError.tooLarge`.
    public static let tooLarge = Code.tooLarge
    /// Matches an error of code ``Code/unknownField``: `catch ImportError.unknownField`.
    public static let unknownField = Code.unknownField
    /// Matches an error of code ``Code/missingField``: `catch ImportError.missingField`.
    public static let missingField = Code.missingField
    /// Matches an error of code ``Code/invalidValue``: `catch ImportError.invalidValue`.
    public static let invalidValue = Code.invalidValue
    /// Matches an error of code ``Code/validation``: `catch ImportError.validation`.
    public static let validation = Code.validation
    /// Matches an error of code ``Code/unsafePath``: `catch ImportError.unsafePath`.
    public static let unsafePath = Code.unsafePath
    /// Matches an error of code ``Code/store``: `catch ImportError.store`.
    public static let store = Code.store
}

extension ImportError.Code {
    /// Whether `error` is a ``ImportError`` of this code, so that
    /// `catch ImportError.unreadable` (or `case ImportError.unreadable`) compiles.
    public static func ~= (pattern: ImportError.Code, error: any Error) -> Bool {
        (error as? ImportError)?.code == pattern
    }
}
