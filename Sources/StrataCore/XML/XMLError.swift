import Foundation

/// A located error from reading XML: malformed markup, a forbidden DTD
/// declaration, or a file that cannot be read.
///
/// Its ``description`` reads like a compiler diagnostic, so editors and
/// terminals can jump to the place:
///
/// ```
/// Model.xcdatamodel/contents:3:14: Opening and ending tag mismatch: entity line 2 and model
/// ```
///
/// The message comes from libxml2 when libxml2 found the problem (it names
/// what was expected where libxml2 says so), or from Strata's XML layer. It
/// quotes markup names, never character data, so it is safe to log.
public struct XMLError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The file path, or the label given for in-memory data.
    public var file: String
    /// The 1-based line of the problem, when known.
    public var line: Int?
    /// The 1-based column of the problem, when known.
    public var column: Int?
    /// What went wrong, without the location.
    public var message: String

    /// Creates an error at a place in a file.
    ///
    /// - Parameters:
    ///   - file: The file path or label.
    ///   - line: The 1-based line, or nil when unknown.
    ///   - column: The 1-based column, or nil when unknown.
    ///   - message: What went wrong.
    public init(file: String, line: Int? = nil, column: Int? = nil, message: String) {
        self.file = file
        self.line = line
        self.column = column
        self.message = message
    }

    /// `<file>:<line>:<column>: <message>`, leaving out the parts not known.
    public var description: String {
        var location = file
        if let line {
            location += ":\(line)"
            if let column { location += ":\(column)" }
        }
        return "\(location): \(message)"
    }
}
