/// Why a mapping model could not be read: malformed XML or archive, a
/// missing or doubled root object, a dangling reference, a value of the
/// wrong kind. Each issue names the file, the place (`object z107` and its
/// line, or `$objects[12]`) and what was expected.
///
/// ```
/// Model.xcmappingmodel/xcmapping.xml:14: object z107 <attribute name="mappingnumber">: expected an int16, found "x"
/// ```
public struct XcodeMappingModelError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The problems, in the order they were found.
    public var issues: [XcodeModelIssue]

    /// Creates an error from its issues.
    public init(issues: [XcodeModelIssue]) {
        self.issues = issues
    }

    /// An error of one issue.
    init(
        file: String, line: Int? = nil, column: Int? = nil, place: String? = nil, _ message: String
    ) {
        self.init(
            issues: [
                XcodeModelIssue(
                    file: file, line: line, column: column, element: place, message: message)
            ])
    }

    /// One issue per line.
    public var description: String {
        issues.map(\.description).joined(separator: "\n")
    }
}
