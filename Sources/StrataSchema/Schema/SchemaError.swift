/// Every problem found while reading or checking schema files.
///
/// Its `description` lists one ``SchemaIssue`` per line:
///
/// ```
/// Schemas/Diary/2.json:14:21: $.entities.Medium.attributes.type.pattern: ...
/// ```
public struct SchemaError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The problems, in file order and then in the order they appear in each file.
    public var issues: [SchemaIssue]

    /// Creates an error from its issues.
    public init(issues: [SchemaIssue]) {
        self.issues = issues
    }

    /// One issue per line, as `<file>:<line>:<column>: <path>: <message>`.
    public var description: String {
        issues.map(\.description).joined(separator: "\n")
    }
}
