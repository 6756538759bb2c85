import Foundation

@testable import StrataCore

/// An `NSExpression` to archive as Core Data does (coredata-mapping-models.md
/// §2.4): the classes, keys and `NSExpressionType` codes of real archives.
indirect enum ExpressionFixture {
    /// `NSConstantValueExpression` with a plain scalar (`.integer(-1)`).
    case constant(RecordValue)
    /// `NSConstantValueExpression` with a string entry.
    case string(String)
    /// `NSConstantValueExpression` holding `$null`.
    case null
    /// `NSVariableExpression`, the name without `$`.
    case variable(String)
    /// `NSKeyPathSpecifierExpression`.
    case specifier(String)
    /// `NSKeyPathExpression`: operand, `valueForKeyPath:`, one specifier.
    case keyPath(ExpressionFixture, String)
    /// `NSFunctionExpression`: operand, selector, arguments.
    case function(ExpressionFixture, String, [ExpressionFixture])
    /// `NSFetchRequestExpression`.
    case fetch(ExpressionFixture, ExpressionFixture, countOnly: Bool)
    /// `NSAggregateExpression`.
    case aggregate([ExpressionFixture])
    /// `NSSelfExpression`.
    case evaluatedObject
    /// An expression of a class the reader does not know.
    case unknown(String)

    /// `$source.<path>`.
    static func source(_ path: String) -> Self {
        .keyPath(.variable("source"), path)
    }

    /// Xcode's source fetch for `entity` filtered by `predicate` (§2.6c),
    /// its context `$manager.sourceContext`.
    static func defaultFetch(entity: String, predicate: String) -> Self {
        .fetch(
            .function(
                .variable("manager"), "fetchRequestForSourceEntityNamed:predicateString:",
                [.string(entity), .string(predicate)]),
            .keyPath(.variable("manager"), "sourceContext"), countOnly: false)
    }

    /// The relationship expression Xcode compiles from a "Key Path" and a
    /// "Mapping Name" (§2.6b); the key path is `$source` or
    /// `$source.<path>`.
    static func destinationInstances(mapping: String, keyPath: String) -> Self {
        let path = keyPath.hasPrefix("$source.") ? String(keyPath.dropFirst(8)) : ""
        return .function(
            .variable("manager"), "destinationInstancesForEntityMappingNamed:sourceInstances:",
            [.string(mapping), path.isEmpty ? .variable("source") : .source(path)])
    }

    /// The archive with this expression as its root.
    var archive: Data {
        var builder = KeyedArchiveBuilder()
        let root = builder.expression(self)
        return builder.archive(root: root)
    }

    /// An archive whose root function lists itself among its arguments.
    static var cyclicArchive: Data {
        var builder = KeyedArchiveBuilder()
        let root = builder.reserve()
        let operand = builder.expression(.variable("source"))
        let selector = builder.string("description")
        let arguments = builder.array([root])
        builder.object(
            ExpressionFixture.functionChain,
            [
                "NSExpressionType": .integer(4), "NSOperand": operand,
                "NSSelectorName": selector, "NSArguments": arguments,
            ], at: root)
        return builder.archive(root: root)
    }

    static let functionChain = ["NSFunctionExpression", "NSExpression"]
}

extension KeyedArchiveBuilder {
    /// Archives `expression`; returns its UID.
    mutating func expression(_ expression: ExpressionFixture) -> RecordValue {
        switch expression {
        case .constant(let value):
            return object(
                ["NSConstantValueExpression", "NSExpression"],
                ["NSExpressionType": .integer(0), "NSConstantValue": value])
        case .string(let text):
            let uid = string(text)
            return object(
                ["NSConstantValueExpression", "NSExpression"],
                ["NSExpressionType": .integer(0), "NSConstantValue": uid])
        case .null:
            return object(
                ["NSConstantValueExpression", "NSExpression"],
                ["NSExpressionType": .integer(0), "NSConstantValue": .uid(0)])
        case .variable(let name):
            let uid = string(name)
            return object(
                ["NSVariableExpression", "NSExpression"],
                ["NSExpressionType": .integer(2), "NSVariable": uid])
        case .specifier(let path):
            let uid = string(path)
            return object(
                ["NSKeyPathSpecifierExpression", "NSExpression"],
                ["NSExpressionType": .integer(10), "NSKeyPath": uid])
        case .keyPath(let operand, let path):
            let selector = string("valueForKeyPath:")
            let operandUID = self.expression(operand)
            let specifier = self.expression(.specifier(path))
            let arguments = array([specifier], className: "NSMutableArray")
            return object(
                ["NSKeyPathExpression", "NSFunctionExpression", "NSExpression"],
                [
                    "NSExpressionType": .integer(4), "NSOperand": operandUID,
                    "NSSelectorName": selector, "NSArguments": arguments,
                ])
        case .function(let operand, let selectorName, let argumentList):
            let selector = string(selectorName)
            let operandUID = self.expression(operand)
            let arguments = array(argumentList.map { self.expression($0) })
            return object(
                ExpressionFixture.functionChain,
                [
                    "NSExpressionType": .integer(4), "NSOperand": operandUID,
                    "NSSelectorName": selector, "NSArguments": arguments,
                ])
        case .fetch(let request, let context, let countOnly):
            let requestUID = self.expression(request)
            let contextUID = self.expression(context)
            return object(
                ["NSFetchRequestExpression", "NSExpression"],
                [
                    "NSExpressionType": .integer(50), "NSFRExpression": requestUID,
                    "NSMOCExpression": contextUID, "NSCountOnlyFlag": .boolean(countOnly),
                ])
        case .aggregate(let items):
            let collection = array(items.map { self.expression($0) })
            return object(
                ["NSAggregateExpression", "NSExpression"],
                ["NSExpressionType": .integer(14), "NSCollection": collection])
        case .evaluatedObject:
            return object(["NSSelfExpression", "NSExpression"], ["NSExpressionType": .integer(1)])
        case .unknown(let className):
            return object([className, "NSExpression"], ["NSExpressionType": .integer(13)])
        }
    }
}
