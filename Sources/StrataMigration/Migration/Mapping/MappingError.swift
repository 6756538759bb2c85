/// A mapping file that cannot be used, or a mapping that failed while it
/// ran: every problem found, each with its location.
///
/// Loading reports every problem of a file at once, in document order:
///
/// ```
/// Schemas/Diary/1-2.mapping.json:9:18: $.entities.DiaryEntry.attributes.title: column 1 of the expression: unknown function 'frstLine'; …
///   frstLine(text)
///   ^
/// ```
///
/// A problem while the mapping runs (a value that does not fit its
/// attribute or breaks one of its rules) names the object (`DiaryEntry p12`) and the path of the
/// expression that produced it.
public struct MappingError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The problems, in the order they appear in the file.
    public var issues: [MappingIssue]

    /// Creates an error from its issues.
    public init(issues: [MappingIssue]) {
        self.issues = issues
    }

    /// Creates an error with a single issue.
    init(file: String, path: String, message: String) {
        self.issues = [MappingIssue(file: file, path: path, message: message)]
    }

    /// Each issue's description, one after the other.
    public var description: String {
        issues.map(\.description).joined(separator: "\n")
    }
}
