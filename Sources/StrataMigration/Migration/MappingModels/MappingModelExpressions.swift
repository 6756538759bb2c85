import Foundation
import StrataCore
import StrataQuery
import StrataSchema
import StrataStore

/// Core Data's value expressions (`NSExpression`s, read into the shared
/// ``ExpressionNode`` tree) as Strata mapping expressions over one source
/// entity.
///
/// What a mapping model holds is a small language: `$source.keyPath`,
/// constants, `FUNCTION($entityPolicy, "selector:", …)` calls into the
/// app's policy class, and `FUNCTION($manager,
/// "destinationInstancesForEntityMappingNamed:sourceInstances:", "Name",
/// $source.path)` for relationships. Each has a Strata counterpart except
/// the policy calls, which are app code.
struct MappingModelExpressions {
    /// The source version.
    let source: Model
    /// The entity whose objects `$source` stands for.
    let entity: String

    /// A problem with an expression.
    struct Failure: Error {
        var message: String
    }

    /// What an attribute's expression becomes.
    enum Translation: Equatable {
        /// A key path of the source object, with the function that converts
        /// its value to the attribute's type when the types differ.
        case keyPath([String], conversion: String?)
        /// A Strata expression (from constants and functions), with the
        /// Core Data expression it came from.
        case expression(String, original: String)
        /// A call into the policy class: app code, shown as Core Data's text.
        case policyCall(String)
    }

    /// The selector of a relationship's generated expression.
    static let destinationInstances = "destinationInstancesForEntityMappingNamed:sourceInstances:"

    /// KVC's collection operators that flatten collections, which a Strata
    /// `"from"` path does on its own.
    static let unions: Set<String> = [
        "@distinctUnionOfSets", "@unionOfSets", "@distinctUnionOfObjects", "@unionOfObjects",
        "@distinctUnionOfArrays", "@unionOfArrays",
    ]

    /// The tree of an archived `NSExpression`.
    static func node(_ archived: ArchivedObject) throws -> ExpressionNode {
        try ExpressionNode(archived: archived)
    }

    /// `$source.<path>` as Core Data's archive has it: `valueForKeyPath:`
    /// called on the `source` variable.
    static func sourceKeyPath(_ path: [String]) -> ExpressionNode {
        .function(
            "FUNCTION",
            [
                .variable("source", column: 0), .value(.string("valueForKeyPath:")),
                .keyPath(path, column: 0),
            ], column: 0)
    }

    /// A key path in Strata's expression syntax: plain names as they are,
    /// others between backquotes.
    static func keyPathText(_ path: [String]) -> String {
        path.map { name in
            let plain =
                name.first.map { $0 == "_" || $0.isLetter } == true
                && name.allSatisfy { $0 == "_" || $0.isLetter || $0.isNumber }
                && !["true", "false", "nil"].contains(name)
            return plain ? name : "`\(name)`"
        }.joined(separator: ".")
    }

    /// A constant in Strata's (and Core Data's) literal syntax.
    static func literal(_ value: PredicateValue) -> String? {
        switch value {
        case .null: "nil"
        case .boolean(let flag): flag ? "true" : "false"
        case .integer(let number): "\(number)"
        case .real(let number): JSONWriter.numberText(number)
        case .string(let text): JSONWriter.quoted(text)
        default: nil
        }
    }

    /// The key path `node` reads from the source object, when it is one:
    /// `$source.a.b` (or a bare `a.b`, evaluated against the source).
    static func sourcePath(_ node: ExpressionNode) -> [String]? {
        switch node {
        case .variable("source", _): return []
        case .keyPath(let path, _): return path
        case .function("FUNCTION", let arguments, _):
            guard arguments.count == 3,
                case .value(.string("valueForKeyPath:"), _) = arguments[1],
                let base = sourcePath(arguments[0]),
                case .keyPath(let path, _) = arguments[2]
            else { return nil }
            return base + path
        default: return nil
        }
    }

    // MARK: - Attributes

    /// The Strata form of `node`, the value of `attribute`.
    func translate(_ node: ExpressionNode, into attribute: Attribute) throws(Failure)
        -> Translation
    {
        let original = node.expressionText
        if let path = Self.sourcePath(node) {
            guard !path.isEmpty else {
                throw Failure(
                    message: "\(original) is the source object, not a value for the attribute "
                        + "\(attribute.name)")
            }
            let type = try attributeType(at: path, original: original)
            return .keyPath(path, conversion: try conversion(from: type, to: attribute, original))
        }
        if case .function("FUNCTION", let arguments, _) = node, let receiver = arguments.first {
            if case .variable("entityPolicy", _) = receiver { return .policyCall(original) }
            if case .variable(let name, _) = receiver {
                throw Failure(
                    message: "\(original) calls a method of $\(name), which Strata has no "
                        + "counterpart for; write the value as a Strata expression")
            }
        }
        let (text, type) = try expression(node, original: original)
        if let type, !type.fits(attribute.type) {
            if type == .integer, attribute.type == .boolean,
                case .value(.integer(let number), _) = node
            {
                // Core Data stores an NSNumber either way: 0 is NO.
                return .expression(number == 0 ? "false" : "true", original: original)
            }
            throw Failure(
                message: "\(original) gives \(type.withArticle), but \(attribute.name) is "
                    + "\(attribute.type.rawValue)")
        }
        return .expression(text, original: original)
    }

    /// The Strata text of a constant or a built-in function of `NSExpression`,
    /// with its type when known.
    private func expression(_ node: ExpressionNode, original: String) throws(Failure)
        -> (String, ExpressionType?)
    {
        switch node {
        case .value(let value, _):
            guard let text = Self.literal(value) else {
                throw Failure(message: "the constant \(original) has no Strata literal")
            }
            let type: ExpressionType =
                switch value {
                case .null: .null
                case .boolean: .boolean
                case .integer: .integer
                case .real: .real
                default: .string
                }
            return (text, type)
        case .function("FUNCTION", let arguments, _) where arguments.count >= 2:
            guard case .value(.string(let selector), _) = arguments[1],
                let name = Self.builtIns[selector]
            else { break }
            var texts: [String] = []
            for argument in arguments.dropFirst(2) {
                if let path = Self.sourcePath(argument), !path.isEmpty {
                    _ = try attributeType(at: path, original: original)
                    texts.append(Self.keyPathText(path))
                } else {
                    texts.append(try expression(argument, original: original).0)
                }
            }
            if ["+", "-", "*", "/"].contains(name), texts.count == 2 {
                return ("(\(texts[0]) \(name) \(texts[1]))", nil)
            }
            return ("\(name)(\(texts.joined(separator: ", ")))", nil)
        default: break
        }
        throw Failure(
            message: "\(original) has no Strata counterpart (Strata reads key paths of $source, "
                + "constants and NSExpression's arithmetic and case functions); write the value as "
                + "a Strata expression")
    }

    /// `NSExpression`'s built-in functions that have a Strata counterpart.
    static let builtIns: [String: String] = [
        "uppercase:": "upper", "lowercase:": "lower", "abs:": "abs", "add:to:": "+",
        "from:subtract:": "-", "multiply:by:": "*", "divide:by:": "/",
    ]

    /// The type of the attribute `path` ends at, following to-one
    /// relationships from the source entity.
    private func attributeType(at path: [String], original: String) throws(Failure)
        -> AttributeType
    {
        var current = entity
        for (index, name) in path.enumerated() {
            let isLast = index == path.count - 1
            if name.hasPrefix("@") {
                throw Failure(
                    message: "\(original): the collection operator \(name) has no counterpart in "
                        + "a Strata attribute expression; write it with count(…) or a custom step")
            }
            if let attribute = source.allAttributes(of: current).first(where: { $0.name == name }) {
                guard isLast else {
                    throw Failure(
                        message: "\(original): \(current).\(name) is an attribute, so the key "
                            + "path cannot go on past it")
                }
                return attribute.type
            }
            guard
                let relationship = source.allRelationships(of: current).first(where: {
                    $0.name == name
                })
            else {
                throw Failure(
                    message: "\(original): \(current) of version \(source.version) has no "
                        + "property '\(name)'; its properties: "
                        + (source.allAttributes(of: current).map(\.name)
                        + source.allRelationships(of: current).map(\.name))
                        .joined(separator: ", "))
            }
            guard !relationship.isToMany else {
                throw Failure(
                    message: "\(original): \(current).\(name) is to-many, so it gives no single "
                        + "value")
            }
            guard !isLast else {
                throw Failure(
                    message: "\(original) ends at the relationship \(current).\(name), not at an "
                        + "attribute")
            }
            current = relationship.destination
        }
        throw Failure(message: "\(original): an empty key path")
    }

    /// The function that turns a value of `type` into `attribute`'s type,
    /// nil when it fits as it is.
    private func conversion(
        from type: AttributeType, to attribute: Attribute, _ original: String
    ) throws(Failure) -> String? {
        let from = ExpressionType(type)
        if from.fits(attribute.type) { return nil }
        switch (from, ExpressionType(attribute.type)) {
        case (.string, .date): return "date"
        case (.string, .real): return "number"
        case (.string, .integer): return "integer"
        case (.real, .integer): return "round"
        case (_, .string) where from != .binary: return "string"
        default:
            throw Failure(
                message: "\(original) is \(type.rawValue) but \(attribute.name) is "
                    + "\(attribute.type.rawValue), and no rule converts one into the other; "
                    + "write the conversion as a Strata expression")
        }
    }

    // MARK: - Relationships

    /// The entity mapping named and the source path of a relationship's
    /// expression:
    /// `FUNCTION($manager, "destinationInstancesForEntityMappingNamed:sourceInstances:", "Name", $source.path)`.
    static func link(_ node: ExpressionNode) throws(Failure) -> (mapping: String, path: [String]) {
        guard case .function("FUNCTION", let arguments, _) = node, arguments.count == 4,
            case .variable("manager", _) = arguments[0],
            case .value(.string(destinationInstances), _) = arguments[1],
            case .value(.string(let name), _) = arguments[2]
        else {
            throw Failure(
                message:
                    "\(node.expressionText) is not the form Strata converts for a relationship: "
                    + "FUNCTION($manager, \"\(destinationInstances)\", \"<mapping>\", $source…)")
        }
        return (name, try linkPath(arguments[3]))
    }

    /// The relationship path of a link's source expression, without the
    /// collection operators that flatten (a `"from"` path collects every
    /// object it reaches).
    static func linkPath(_ node: ExpressionNode) throws(Failure) -> [String] {
        guard let path = sourcePath(node) else {
            throw Failure(
                message: "\(node.expressionText) is not a key path of $source")
        }
        return try withoutUnions(path, original: node.expressionText)
    }

    /// The path of a relationship mapping's "Key Path" field
    /// (`$source.countries.@distinctUnionOfSets.moods`).
    static func linkPath(text: String) throws(Failure) -> [String] {
        let parts = text.trimmingCharacters(in: .whitespaces).split(
            separator: ".", omittingEmptySubsequences: false
        ).map(String.init)
        guard parts.first == "$source", !parts.dropFirst().contains(where: \.isEmpty) else {
            throw Failure(message: "the key path '\(text)' does not start with $source")
        }
        return try withoutUnions(Array(parts.dropFirst()), original: text)
    }

    private static func withoutUnions(_ path: [String], original: String) throws(Failure)
        -> [String]
    {
        var result: [String] = []
        for name in path {
            if unions.contains(name) { continue }
            if name.hasPrefix("@") {
                throw Failure(
                    message: "\(original): the collection operator \(name) gives no objects to "
                        + "link; a relationship's key path may flatten with @distinctUnionOfSets "
                        + "and its kin only")
            }
            result.append(name)
        }
        return result
    }
}
