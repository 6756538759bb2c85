import StrataQuery
import StrataSchema

/// One value expression of a mapping file, parsed and type-checked against
/// the source entity it reads.
///
/// Expressions read the source object through key paths (`text`,
/// `notebook.title`), combine values with `+ - * /`, comparisons, `&&`,
/// `||`, `!` and `??`, and call functions such as `firstLine(text)`,
/// `split(keywords, ",")` or `date(born, "dd.MM.yyyy")`; the
/// MigrationMappings article lists them all.
public struct MappingExpression: Hashable, Sendable {
    /// The expression as written in the file.
    public let text: String
    /// The JSON path of the expression in its file, for errors while it runs.
    public let path: String
    let node: ExpressionNode
    let type: ExpressionType
    /// The attribute each key path ends at, by dotted path.
    let keyPaths: [String: Attribute]

    init(
        text: String, path: String, node: ExpressionNode, type: ExpressionType,
        keyPaths: [String: Attribute]
    ) {
        self.text = text
        self.path = path
        self.node = node
        self.type = type
        self.keyPaths = keyPaths
    }
}
