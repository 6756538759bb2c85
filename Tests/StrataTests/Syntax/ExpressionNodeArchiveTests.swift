import Foundation
import Testing

@testable import StrataCore
@testable import StrataQuery
@testable import StrataStore

/// Archived `NSExpression`s of every kind Core Data writes, read into the
/// shared tree and printed as `NSExpression` prints them.
struct ExpressionNodeArchiveTests {
    func node(_ fixture: ExpressionFixture) throws -> ExpressionNode {
        try node(fixture.archive)
    }

    func node(_ archive: Data) throws -> ExpressionNode {
        let root = try #require(try KeyedArchive(data: archive).topObject())
        return try ExpressionNode(archived: root)
    }

    @Test func testConstantsBecomeValues() throws {
        #expect(try node(.constant(.integer(-1))) == .value(.integer(-1)))
        #expect(try node(.constant(.real(2.5))) == .value(.real(2.5)))
        #expect(try node(.constant(.boolean(true))) == .value(.boolean(true)))
        #expect(try node(.string("text")) == .value(.string("text")))
        #expect(try node(.null) == .value(.null))
        #expect(
            try node(.constant(.date(Date(timeIntervalSinceReferenceDate: 60))))
                == .value(.date(60)))
        #expect(try node(.constant(.integer(-1))).expressionText == "-1")
        #expect(try node(.string("text")).expressionText == #""text""#)
        #expect(try node(.null).expressionText == "nil")
    }

    @Test func testVariablesAndKeyPathSpecifiers() throws {
        #expect(try node(.variable("source")) == .variable("source", column: 0))
        #expect(
            try node(.specifier("countries.@distinctUnionOfSets.moods"))
                == .keyPath(["countries", "@distinctUnionOfSets", "moods"], column: 0))
        #expect(try node(.variable("source")).expressionText == "$source")
    }

    @Test func testKeyPathExpressionsAreFunctionsPrintedAsKeyPaths() throws {
        let tree = try node(.source("continent.numericISO3166Code"))
        #expect(
            tree
                == .function(
                    "FUNCTION",
                    [
                        .variable("source", column: 0), .value(.string("valueForKeyPath:")),
                        .keyPath(["continent", "numericISO3166Code"], column: 0),
                    ], column: 0))
        #expect(tree.expressionText == "$source.continent.numericISO3166Code")
    }

    @Test func testFunctionExpressions() throws {
        let tree = try node(
            .function(.variable("entityPolicy"), "toInt16WithValue:", [.source("bonusPoints")]))
        guard case .function("FUNCTION", let arguments, _) = tree else {
            Issue.record("not a function: \(tree)")
            return
        }
        #expect(arguments.count == 3)
        #expect(arguments[1] == .value(.string("toInt16WithValue:")))
        #expect(
            tree.expressionText
                == #"FUNCTION($entityPolicy, "toInt16WithValue:", $source.bonusPoints)"#)
    }

    @Test func testFetchRequestExpressions() throws {
        let tree = try node(.defaultFetch(entity: "Mood", predicate: "TRUEPREDICATE"))
        guard case .function("FETCH", let arguments, _) = tree else {
            Issue.record("not a fetch: \(tree)")
            return
        }
        #expect(arguments.last == .value(.boolean(false)))
        #expect(
            tree.expressionText
                == #"FETCH(FUNCTION($manager, "fetchRequestForSourceEntityNamed:predicateString:", "Mood", "TRUEPREDICATE"), $manager.sourceContext, NO)"#
        )
    }

    @Test func testAggregatesAndTheEvaluatedObject() throws {
        let tree = try node(.aggregate([.constant(.integer(1)), .string("a"), .evaluatedObject]))
        #expect(
            tree
                == .list([.value(.integer(1)), .value(.string("a")), .variable("SELF", column: 0)]))
        #expect(tree.expressionText == #"{1, "a", SELF}"#)
    }

    @Test func testAnUnknownClassIsRefusedWithItsIndex() throws {
        let error = try #require(throws: ArchivedExpressionError.self) {
            try node(.function(.variable("source"), "f:", [.unknown("NSSubqueryExpression")]))
        }
        #expect(error.className == "NSSubqueryExpression")
        #expect(
            error.description.hasPrefix(
                "$objects[\(error.objectIndex)] (NSSubqueryExpression): unsupported expression class; expected one of NSAggregateExpression"
            ))
    }

    @Test func testAnExpressionThatContainsItselfEndsInTheDepthLimit() throws {
        let error = try #require(throws: ArchivedExpressionError.self) {
            try node(ExpressionFixture.cyclicArchive)
        }
        #expect(error.className == "NSFunctionExpression")
        #expect(error.message.hasPrefix("nested deeper than 64 expressions"))
    }

    @Test func testSharedSubexpressionsCannotMultiplyPastTheNodeLimit() throws {
        // Each level lists the one below twice: 2^20 nodes from 40 objects.
        var builder = KeyedArchiveBuilder()
        var current = builder.expression(.variable("source"))
        let selector = builder.string("f:")
        for _ in 0..<20 {
            let arguments = builder.array([current, current])
            current = builder.object(
                ExpressionFixture.functionChain,
                ["NSOperand": current, "NSSelectorName": selector, "NSArguments": arguments])
        }
        let error = try #require(throws: ArchivedExpressionError.self) {
            try node(builder.archive(root: current))
        }
        #expect(error.message == "more than 10000 expressions in one")
    }

    @Test func testAMissingKeyIsRefused() throws {
        var builder = KeyedArchiveBuilder()
        let root = builder.object(["NSVariableExpression", "NSExpression"], [:])
        let error = try #require(throws: ArchivedExpressionError.self) {
            try node(builder.archive(root: root))
        }
        #expect(
            error.description
                == "$objects[2] (NSVariableExpression): no NSVariable; expected a string")
    }
}
