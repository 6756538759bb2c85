import StrataCore
import StrataQuery

/// An attribute whose imported value is computed from the record's fields
/// with the mapping expression language (the MigrationMappings article
/// lists its functions): `integer(before(prepTime, " "))` turns
/// `"45 min"` into 45.
///
/// Key paths in the expression name input fields; a field whose name is
/// not a plain word (letters, digits and `_`) is written between
/// backquotes: `` number(`Culmen Length (mm)`) ``. The expression is
/// checked when it is made (known functions, their numbers and types of
/// arguments, regular expressions and formats), and again against the
/// input's fields before the first record is written: a name the input does
/// not have is an error, never a nil in every row.
public struct ComputedAttribute: Hashable, Sendable {
    /// The attribute the value is written to.
    public let attribute: String
    /// The expression as written.
    public let expression: String
    /// Where the expression is written (its mapping file, JSON path, line
    /// and column), for errors found when the input is read.
    public let position: SourcePosition
    let node: ExpressionNode

    /// Parses and checks `expression` for `attribute`.
    ///
    /// - Throws: ``ImportError`` (`syntax` for text that does not parse,
    ///   `structure` for an unknown function or arguments that do not fit)
    ///   at the expression's column.
    public init(attribute: String, expression: String, at position: SourcePosition) throws {
        self.attribute = attribute
        self.expression = expression
        self.position = position
        do {
            node = try ExpressionParser.parse(expression)
        } catch {
            throw Self.error(.syntax, error, attribute: attribute, at: position)
        }
        var checker = ExpressionChecker(fields: nil)
        do {
            _ = try checker.type(of: node)
        } catch {
            throw Self.error(.structure, error, attribute: attribute, at: position)
        }
    }

    /// The input fields the expression reads, by their whole names.
    var fields: Set<String> { Set(node.keyPaths.map { $0.joined(separator: ".") }) }

    /// Checks the expression against an input's fields and the types of
    /// their values.
    ///
    /// - Throws: ``ImportError`` (`unknownField` for a name the input lacks,
    ///   `structure` for a type that does not fit) at the expression's
    ///   column in the mapping file.
    func check(fields: [String: ExpressionType]) throws {
        var checker = ExpressionChecker(fields: fields)
        do {
            _ = try checker.type(of: node)
        } catch {
            let code: ImportError.Code =
                self.fields.allSatisfy { fields[$0] != nil } ? .structure : .unknownField
            throw Self.error(code, error, attribute: attribute, at: position)
        }
    }

    /// `error`, placed at its column of the expression written at `position`.
    static func error(
        _ code: ImportError.Code, _ error: ExpressionError, attribute: String,
        at position: SourcePosition
    ) -> ImportError {
        var located = position
        located.column += error.column
        return ImportError(
            code, at: located, "in the expression for \(attribute): \(error.message)")
    }
}
