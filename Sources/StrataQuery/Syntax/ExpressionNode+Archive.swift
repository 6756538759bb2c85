import Foundation
import StrataStore

// Archived `NSExpression`s (coredata-mapping-models.md §2.4, §6.1) onto the
// shared tree. The archived `NSExpressionType` numbers are internal class
// codes (a key path expression says 4, the function code), so classes are
// told apart by `$classname` only.

extension ExpressionNode {
    /// The deepest archived expression read: real ones are 3 or 4 levels.
    public static let maximumArchivedDepth = 64
    /// The most nodes an archived expression may make: shared
    /// subexpressions are copied, so a small archive could otherwise
    /// describe an enormous tree.
    public static let maximumArchivedNodes = 10_000

    /// Reads an archived `NSExpression`.
    ///
    /// | class | node |
    /// | --- | --- |
    /// | `NSConstantValueExpression` | `.value` (numbers, strings, booleans, dates, data; `$null` is `.null`) |
    /// | `NSVariableExpression` | `.variable(name)` (without `$`) |
    /// | `NSKeyPathSpecifierExpression` | `.keyPath` (split on `.`; `@distinctUnionOfSets` and such kept) |
    /// | `NSKeyPathExpression`, `NSFunctionExpression` | `.function("FUNCTION", [operand, .value("selector"), arguments…])`, as `FUNCTION(operand, "selector", …)` reads |
    /// | `NSFetchRequestExpression` | `.function("FETCH", [request, context, .value(countOnly)])` |
    /// | `NSAggregateExpression` | `.list` |
    /// | `NSSelfExpression` | `.variable("SELF")`: the evaluated object, which no key path or variable of the shared grammar names; ``expressionText`` prints it `SELF` |
    ///
    /// Columns are 0: the expression had no text.
    ///
    /// - Parameter object: The archived expression (an archive's root, or
    ///   a mapping's value or source expression).
    /// - Throws: ``ArchivedExpressionError`` naming `$objects[i]` and the
    ///   class for an unknown class, a missing key, or a tree deeper than
    ///   ``maximumArchivedDepth`` (a cycle ends there) or larger than
    ///   ``maximumArchivedNodes``; ``KeyedArchiveError`` for a malformed
    ///   archive underneath.
    public init(archived object: ArchivedObject) throws {
        var reader = ArchivedExpressionReader()
        self = try reader.node(object, depth: 1)
    }
}

/// Walks an archived expression, counting depth and nodes.
private struct ArchivedExpressionReader {
    var nodes = 0

    mutating func node(_ object: ArchivedObject, depth: Int) throws -> ExpressionNode {
        nodes += 1
        guard nodes <= ExpressionNode.maximumArchivedNodes else {
            throw error(
                object, "more than \(ExpressionNode.maximumArchivedNodes) expressions in one")
        }
        // The first class of the chain the reader knows: a subclass of a
        // known expression reads as that expression.
        switch object.classNames.first(where: Self.known.contains) {
        case "NSConstantValueExpression":
            return .value(try constant(object), column: 0)
        case "NSVariableExpression":
            return .variable(try required(object, "NSVariable"), column: 0)
        case "NSKeyPathSpecifierExpression":
            let path = try required(object, "NSKeyPath")
            return .keyPath(
                path.split(separator: ".", omittingEmptySubsequences: false).map(String.init),
                column: 0)
        case "NSKeyPathExpression", "NSFunctionExpression":
            guard let operand = try object.object("NSOperand") else {
                throw error(object, "no NSOperand; expected the receiver expression")
            }
            let selector = try required(object, "NSSelectorName")
            var arguments = [
                try child(operand, of: object, depth: depth), .value(.string(selector), column: 0),
            ]
            for argument in try object.array("NSArguments") ?? [] {
                arguments.append(
                    try child(try expression(argument, in: object), of: object, depth: depth))
            }
            return .function("FUNCTION", arguments, column: 0)
        case "NSFetchRequestExpression":
            guard let request = try object.object("NSFRExpression"),
                let context = try object.object("NSMOCExpression")
            else {
                throw error(object, "expected NSFRExpression and NSMOCExpression")
            }
            return .function(
                "FETCH",
                [
                    try child(request, of: object, depth: depth),
                    try child(context, of: object, depth: depth),
                    .value(.boolean(try object.bool("NSCountOnlyFlag") ?? false), column: 0),
                ], column: 0)
        case "NSAggregateExpression":
            var items: [ExpressionNode] = []
            for item in try object.array("NSCollection") ?? [] {
                items.append(try child(try expression(item, in: object), of: object, depth: depth))
            }
            return .list(items)
        case "NSSelfExpression":
            return .variable("SELF", column: 0)
        default:
            throw error(
                object,
                "unsupported expression class; expected one of "
                    + Self.known.sorted().joined(separator: ", "))
        }
    }

    /// The node of `object`, an operand, argument or item of `parent` at
    /// `depth`; the parent is named when the child would be too deep (a
    /// cycle ends here).
    mutating func child(_ object: ArchivedObject, of parent: ArchivedObject, depth: Int) throws
        -> ExpressionNode
    {
        guard depth < ExpressionNode.maximumArchivedDepth else {
            throw error(
                parent,
                "nested deeper than \(ExpressionNode.maximumArchivedDepth) expressions "
                    + "(or an expression that contains itself)")
        }
        return try node(object, depth: depth + 1)
    }

    static let known: Set<String> = [
        "NSConstantValueExpression", "NSVariableExpression", "NSKeyPathSpecifierExpression",
        "NSKeyPathExpression", "NSFunctionExpression", "NSFetchRequestExpression",
        "NSAggregateExpression", "NSSelfExpression",
    ]

    func error(_ object: ArchivedObject, _ message: String) -> ArchivedExpressionError {
        ArchivedExpressionError(
            objectIndex: object.index, className: object.className, message: message)
    }

    /// The non-empty string at `key`.
    func required(_ object: ArchivedObject, _ key: String) throws -> String {
        guard let text = try object.string(key), !text.isEmpty else {
            throw error(object, "no \(key); expected a string")
        }
        return text
    }

    /// An argument or collection element, which must be an expression.
    func expression(_ value: ArchivedValue, in owner: ArchivedObject) throws -> ArchivedObject {
        guard case .object(let object) = value else {
            throw error(owner, "holds a \(value.kind) where an expression was expected")
        }
        return object
    }

    // MARK: - Constants

    /// `NSConstantValue`: a plain scalar, or an `NSString`, `NSDate`,
    /// `NSData` or `NSDecimalNumber` object, or an array of those.
    func constant(_ object: ArchivedObject) throws -> PredicateValue {
        guard let value = try object.value("NSConstantValue") else { return .null }
        if let scalar = try scalar(value) { return scalar }
        if case .object(let collection) = value,
            collection.isKind(of: "NSArray") || collection.isKind(of: "NSSet")
        {
            return .array(
                try collection.elements().map { element in
                    guard let scalar = try scalar(element) else {
                        throw error(
                            object, "a constant list holds a \(element.kind); expected scalars")
                    }
                    return scalar
                })
        }
        throw error(object, "a constant \(value.kind); expected a number, string, date or data")
    }

    func scalar(_ value: ArchivedValue) throws -> PredicateValue? {
        switch value {
        case .plain(.null): return .null
        case .plain(.boolean(let flag)): return .boolean(flag)
        case .plain(.integer(let number)): return .integer(number)
        case .plain(.unsignedInteger(let number)): return .real(Double(number))
        case .plain(.real(let number)): return .real(number)
        case .plain(.text(let text)): return .string(text)
        case .plain(.date(let date)): return .date(date.timeIntervalSinceReferenceDate)
        case .plain(.data(let bytes)): return .data(bytes)
        case .object(let object) where object.isKind(of: "NSString"):
            return .string(try value.stringValue())
        case .object(let object) where object.isKind(of: "NSData"):
            return .data(try value.dataValue())
        case .object(let object) where object.isKind(of: "NSDate"):
            return try object.value("NS.time").map { .date(try $0.realValue()) }
        case .object(let object) where object.isKind(of: "NSDecimalNumber"):
            return .integer(try value.wholeNumberValue())
        default: return nil
        }
    }
}
