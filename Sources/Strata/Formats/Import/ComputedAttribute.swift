/// An attribute whose imported value is computed from the record's fields
/// with the mapping expression language (the MigrationMappings article
/// lists its functions): `integer(before(prepTime, " "))` turns
/// `"45 min"` into 45. Key paths in the expression name input fields.
public struct ComputedAttribute: Hashable, Sendable {
    /// The attribute the value is written to.
    public let attribute: String
    /// The expression as written.
    public let expression: String
    let node: ExpressionNode

    /// Parses `expression` for `attribute`.
    ///
    /// - Throws: ``ImportError`` (`syntax`) at the expression's column.
    public init(attribute: String, expression: String, at position: SourcePosition) throws {
        self.attribute = attribute
        self.expression = expression
        do {
            node = try ExpressionParser.parse(expression)
        } catch {
            var located = position
            located.column += error.column
            throw ImportError(
                .syntax, at: located, "in the expression for \(attribute): \(error.message)")
        }
    }

    /// The input fields the expression reads.
    var fields: Set<String> { Set(node.keyPaths.map { $0.joined(separator: ".") }) }
}
