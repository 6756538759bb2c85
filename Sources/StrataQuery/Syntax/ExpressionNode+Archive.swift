import StrataStore

// Placeholder until the NSExpression reader lands (issue 26).
extension ExpressionNode {
    /// Reads an archived `NSExpression`.
    public init(archived object: ArchivedObject) throws {
        throw KeyedArchiveError("NSExpression archives are not read yet")
    }
}
