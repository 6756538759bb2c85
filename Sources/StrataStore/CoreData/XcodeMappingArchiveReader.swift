import Foundation
import StrataCore

/// Reads a compiled mapping model (`.cdm`): the keyed archive of an
/// `NSMappingModel` (coredata-mapping-models.md §6.1).
///
/// Every link it follows is one explicit key of one object, so a cyclic
/// archive cannot make it loop; expressions are kept as archived objects
/// for ``ExpressionNode``'s reader, which limits its own depth.
struct XcodeMappingArchiveReader {
    /// The file name issues carry.
    let file: String

    /// The selector of the default source fetch's request (§2.6c).
    static let fetchSelector = "fetchRequestForSourceEntityNamed:predicateString:"

    func read(_ data: Data) throws(XcodeMappingModelError) -> XcodeMappingModel {
        let root: ArchivedObject?
        do {
            root = try KeyedArchive(data: data).topObject()
        } catch let error as KeyedArchiveError {
            throw self.error(error)
        } catch {
            throw XcodeMappingModelError(
                file: file, "expected a keyed archive (a binary property list): \(error)")
        }
        guard let root else {
            throw XcodeMappingModelError(
                file: file, place: "$top.root", "no root object; expected an NSMappingModel")
        }
        guard root.isKind(of: "NSMappingModel") else {
            throw XcodeMappingModelError(
                file: file, place: Self.place(root),
                "the root is a \(root.className); expected an NSMappingModel")
        }
        var mappings: [XcodeMappingModel.EntityMapping] = []
        do {
            for value in try root.array("NSEntityMappings") ?? [] {
                mappings.append(try readEntityMapping(try kind(value, "NSEntityMapping", in: root)))
            }
        } catch let error as XcodeMappingModelError {
            throw error
        } catch let error as KeyedArchiveError {
            throw self.error(error)
        } catch {
            throw XcodeMappingModelError(file: file, "\(error)")
        }
        return XcodeMappingModel(file: file, kind: .cdm, entityMappings: mappings)
    }

    /// `$objects[12]`: where an object is in the archive.
    static func place(_ object: ArchivedObject) -> String {
        "$objects[\(object.index)]"
    }

    private func error(_ error: KeyedArchiveError) -> XcodeMappingModelError {
        XcodeMappingModelError(
            file: file, place: error.objectIndex.map { "$objects[\($0)]" }, error.message)
    }

    /// The object `value` when it is of class `name`.
    private func kind(_ value: ArchivedValue, _ name: String, in owner: ArchivedObject) throws
        -> ArchivedObject
    {
        guard case .object(let object) = value, object.isKind(of: name) else {
            throw XcodeMappingModelError(
                file: file, place: Self.place(owner),
                "holds a \(value.kind) where an \(name) was expected")
        }
        return object
    }

    private func readEntityMapping(_ object: ArchivedObject) throws
        -> XcodeMappingModel.EntityMapping
    {
        let source = nonEmpty(try object.string("NSSourceEntityName"))
        let destination = nonEmpty(try object.string("NSDestinationEntityName"))
        // Core Data's own default (`<source>-><destination>`) is not the
        // name Xcode compiles in or that `sourcemappingname` and policy
        // code use; a stored name is the rule, `XToY` the fallback (§3.1).
        guard
            let name = nonEmpty(try object.string("NSMappingName"))
                ?? XcodeMappingModel.EntityMapping.defaultName(
                    source: source, destination: destination)
        else {
            throw XcodeMappingModelError(
                file: file, place: Self.place(object),
                "an NSEntityMapping without a name and without entities; expected "
                    + "NSSourceEntityName or NSDestinationEntityName at least")
        }
        var mapping = XcodeMappingModel.EntityMapping(
            name: name, sourceEntity: source, destinationEntity: destination,
            sourceEntityVersionHash: try object.data("NSSourceEntityVersionHash"),
            destinationEntityVersionHash: try object.data("NSDestinationEntityVersionHash"),
            policyClassName: nonEmpty(try object.string("NSEntityMigrationPolicyClassName")),
            location: Self.place(object))
        if let expression = try object.object("NSSourceExpression") {
            if let predicate = try Self.defaultFetchPredicate(expression, source: source) {
                mapping.filterPredicate = predicate == "TRUEPREDICATE" ? nil : predicate
            } else {
                mapping.sourceExpression = expression
            }
        }
        for value in try object.array("NSAttributeMappings") ?? [] {
            mapping.attributeMappings.append(
                try readPropertyMapping(try kind(value, "NSPropertyMapping", in: object)))
        }
        for value in try object.array("NSRelationshipMappings") ?? [] {
            mapping.relationshipMappings.append(
                try readPropertyMapping(try kind(value, "NSPropertyMapping", in: object)))
        }
        return mapping
    }

    private func readPropertyMapping(_ object: ArchivedObject) throws
        -> XcodeMappingModel.PropertyMapping
    {
        guard let name = nonEmpty(try object.string("NSDestinationPropertyName")) else {
            throw XcodeMappingModelError(
                file: file, place: Self.place(object),
                "an NSPropertyMapping without NSDestinationPropertyName; expected the "
                    + "destination property's name")
        }
        return XcodeMappingModel.PropertyMapping(
            name: name, valueExpression: try object.object("NSValueExpression"),
            location: Self.place(object))
    }

    private func nonEmpty(_ text: String?) -> String? {
        guard let text, !text.isEmpty else { return nil }
        return text
    }

    // MARK: - The default source fetch

    /// The predicate string of Xcode's default source fetch,
    /// `FETCH(FUNCTION($manager, "fetchRequestForSourceEntityNamed:predicateString:",
    /// "<source>", "<predicate>"), <context>, NO)` with the context
    /// `$manager.sourceContext` or `FUNCTION($manager, "sourceContext")`;
    /// nil for any other expression, which is kept as it is.
    static func defaultFetchPredicate(_ expression: ArchivedObject, source: String?) throws
        -> String?
    {
        guard expression.className == "NSFetchRequestExpression",
            try expression.bool("NSCountOnlyFlag") != true,
            let request = try expression.object("NSFRExpression"),
            request.className == "NSFunctionExpression",
            try isManager(request.object("NSOperand")),
            try request.string("NSSelectorName") == fetchSelector,
            let arguments = try request.array("NSArguments"), arguments.count == 2,
            let entity = try constantString(arguments[0]), entity == source,
            let predicate = try constantString(arguments[1]),
            try isSourceContext(expression.object("NSMOCExpression"))
        else { return nil }
        return predicate
    }

    /// Whether `object` is `$manager`.
    private static func isManager(_ object: ArchivedObject?) throws -> Bool {
        guard let object, object.className == "NSVariableExpression" else { return false }
        return try object.string("NSVariable") == "manager"
    }

    /// Whether `object` is `$manager.sourceContext` or
    /// `FUNCTION($manager, "sourceContext")`.
    private static func isSourceContext(_ object: ArchivedObject?) throws -> Bool {
        guard let object, try isManager(object.object("NSOperand")) else { return false }
        let arguments = try object.array("NSArguments") ?? []
        switch object.className {
        case "NSFunctionExpression":
            return try object.string("NSSelectorName") == "sourceContext" && arguments.isEmpty
        case "NSKeyPathExpression":
            guard try object.string("NSSelectorName") == "valueForKeyPath:",
                arguments.count == 1, case .object(let specifier) = arguments[0],
                specifier.className == "NSKeyPathSpecifierExpression"
            else { return false }
            return try specifier.string("NSKeyPath") == "sourceContext"
        default:
            return false
        }
    }

    /// The string of a constant expression holding one.
    private static func constantString(_ value: ArchivedValue) throws -> String? {
        guard case .object(let object) = value, object.className == "NSConstantValueExpression"
        else { return nil }
        switch try object.value("NSConstantValue") {
        case .plain(.text(let text))?: return text
        case .object(let string)? where string.isKind(of: "NSString"):
            return try ArchivedValue.object(string).stringValue()
        default: return nil
        }
    }
}
