import Foundation
import Testing

@testable import Strata
@testable import StrataQuery
@testable import StrataStore

/// The one expression tree of predicates and mapping expressions: both
/// parsers make the same nodes for what the two grammars share, and each
/// language refuses, at the node's column, the nodes it does not evaluate.
struct ExpressionNodeTests {
    @Test func bothParsersMakeTheSameNodesForASharedText() throws {
        let mapping = try ExpressionParser.parse("pages > 3")
        let pages = ExpressionNode.keyPath(["pages"], column: 1)
        let three = ExpressionNode.value(.integer(3), column: 9)
        #expect(mapping == .binary(.compare(.greater), pages, three, column: 7))
        guard case .comparison(let comparison) = try FetchPredicate("pages > 3") else {
            Issue.record("not a comparison")
            return
        }
        #expect(comparison.left == pages)
        #expect(comparison.right == three)
        // Strings, reals, Booleans and nil are the same values in both.
        let literals = ["'a'", "1.5", "true", "nil"]
        for literal in literals {
            guard case .comparison(let parsed) = try FetchPredicate("x == \(literal)") else {
                Issue.record("not a comparison: \(literal)")
                continue
            }
            #expect(
                try ExpressionParser.parse("x == \(literal)")
                    == .binary(
                        .compare(.equal), .keyPath(["x"], column: 1), parsed.right, column: 3),
                "\(literal)")
        }
    }

    @Test func aPredicateRefusesOperatorsAndCallsAtTheirColumn() throws {
        let fixture = try PredicateFixture.make()
        let sum = ExpressionNode.binary(
            .add, .keyPath(["age"], column: 3), .value(.integer(1), column: 9), column: 7)
        let predicate = FetchPredicate.comparison(
            Comparison(left: sum, op: .greater, right: .value(.integer(3)), column: 3))
        do {
            try predicate.check(entity: "Person", model: fixture.model)
            Issue.record("an operator was checked as a fetch predicate")
        } catch let error as FetchPredicateError {
            #expect(error.code == .invalidOperand)
            #expect(error.column == 3)
            #expect(error.message.contains("the operator '+' is not supported"))
        }
        let call = FetchPredicate.comparison(
            Comparison(
                left: .keyPath(["age"], column: 1), op: .equal,
                right: .function("length", [.keyPath(["name"], column: 14)], column: 7)))
        do {
            try call.check(entity: "Person", model: fixture.model)
            Issue.record("a function call was checked as a fetch predicate")
        } catch let error as FetchPredicateError {
            #expect(error.column == 7)
            #expect(error.message.contains("length(…) is not supported"))
        }
        let ada = try #require(fixture.objects["ada"])
        #expect(throws: FetchPredicateError.self) { try call.evaluate(with: ada) }
    }

    @Test func aMappingRefusesPredicateOnlyNodesAtTheirColumn() {
        func failure(_ node: ExpressionNode) -> ExpressionError? {
            var checker = ExpressionChecker(fields: ["tags": .string])
            do {
                _ = try checker.type(of: node)
                return nil
            } catch {
                return error
            }
        }
        #expect(failure(.count(["tags"], column: 4))?.column == 4)
        #expect(failure(.variable("X", column: 2))?.message.contains("$X") == true)
        #expect(
            failure(.value(.object(ObjectID(entityName: "Tag", key: 1)), column: 6))?.column == 6)
        #expect(failure(.keyPath(["tags"], column: 1)) == nil)
    }

    @Test func theTreeReadsBackAsTextAndKnowsItsShape() throws {
        let tree = ExpressionNode.function(
            "concatenate",
            [
                .keyPath(["a"], column: 13),
                .binary(
                    .multiply,
                    .binary(
                        .add, .keyPath(["b", "c"], column: 17), .value(.integer(1), column: 23),
                        column: 21),
                    .unary(.negate, .keyPath(["d"], column: 29), column: 28), column: 26),
            ], column: 1)
        #expect(tree.description == "concatenate(a, (b.c + 1) * (-d))")
        #expect(tree.keyPaths == [["a"], ["b", "c"], ["d"]])
        #expect(tree.height == 4)
        #expect(BinaryOperator(symbol: "<=") == .compare(.lessOrEqual))
        #expect(BinaryOperator(symbol: "CONTAINS") == nil)
        #expect(BinaryOperator(symbol: "??")?.symbol == "??")
        #expect(tree.column == 1)
        // The text reads back as the same tree (columns aside, which differ
        // where the printed text is spaced differently).
        let reparsed = try ExpressionParser.parse(tree.description)
        #expect(reparsed.description == tree.description)
    }
}
