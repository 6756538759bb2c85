/// Every problem that kept an Xcode model from converting: malformed XML,
/// the legacy binary format, values Strata cannot represent, broken
/// relationships.
///
/// Reading collects the problems of every version file before it throws, so
/// one run shows them all. Its `description` lists one ``XcodeModelIssue``
/// per line.
public struct XcodeModelError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The problems, in file order and then in document order.
    public var issues: [XcodeModelIssue]

    /// Creates an error from its issues.
    public init(issues: [XcodeModelIssue]) {
        self.issues = issues
    }

    /// One issue per line.
    public var description: String {
        issues.map(\.description).joined(separator: "\n")
    }
}
