// ``ExpressionNode/description`` writes the tree in the grammar it parses
// back from; Xcode and `NSExpression` print an archived expression
// differently (`$source.deviceName`, not a `FUNCTION` with a
// `valueForKeyPath:` selector), and messages about mapping models quote
// what the developer saw in Xcode.

extension ExpressionNode {
    /// The expression as `NSExpression` prints it, for messages about
    /// archived expressions (``init(archived:)``):
    /// `FUNCTION(x, "valueForKeyPath:", path)` as `x.path`
    /// (`$source.deviceName`), other functions as
    /// `FUNCTION($entityPolicy, "toInt16WithValue:", $source.bonusPoints)`,
    /// `FETCH(request, context, NO)`, constants as `-1` or `"text"`, dates
    /// as `CAST(<seconds>, "NSDate")`, the evaluated object as `SELF`.
    public var expressionText: String {
        switch self {
        case .keyPath(let path, _):
            return path.joined(separator: ".")
        case .value(.date(let seconds), _):
            return "CAST(\(seconds), \"NSDate\")"
        case .value(let value, _):
            return value.description
        case .variable("SELF", _):
            return "SELF"
        case .variable(let name, _):
            return "$" + name
        case .list(let items):
            return "{" + items.map(\.expressionText).joined(separator: ", ") + "}"
        case .function(let name, let arguments, _):
            if name == "FUNCTION", arguments.count == 3,
                case .value(.string("valueForKeyPath:"), _) = arguments[1],
                case .keyPath(let path, _) = arguments[2]
            {
                return arguments[0].expressionText + "." + path.joined(separator: ".")
            }
            return name + "(" + arguments.map(\.expressionText).joined(separator: ", ") + ")"
        case .count, .unary, .binary:
            return description
        }
    }
}
