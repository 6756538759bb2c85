import Foundation
import Testing

@testable import Strata
@testable import StrataFormats
@testable import StrataQuery

/// Issue 27, points 4 and 5: the evaluator never reads an argument it was
/// not given, and no result grows past its limit.
struct ExpressionEvaluatorLimitTests {
    private func evaluate(
        _ text: String, limit: Int = 100, _ values: [String: MappingValue] = ["x": .string("a")]
    ) throws(ExpressionError) -> MappingValue {
        let node = try ExpressionParser.parse(text)
        return try ExpressionEvaluator(maximumResultBytes: limit).evaluate(node, values)
    }

    @Test(arguments: [
        "lower()", "before(x)", "replace(x)", "round()", "matches(x)", "if(x, x)",
        "nosuchfn(x)",
    ])
    func testAnUncheckedBadCallIsAnErrorNotACrash(text: String) {
        #expect(throws: ExpressionError.self) { try evaluate(text) }
    }

    /// The query layer cannot see the importer's limits: its default is a
    /// copy, kept equal here.
    @Test func testTheDefaultResultLimitIsTheImportersLargestField() {
        #expect(ExpressionEvaluator.defaultMaximumResultBytes == ImportLimits().maximumFieldBytes)
    }

    @Test func testNestedReplacementsStopAtTheLimitBeforeTheTextIsBuilt() {
        var text = "x"
        for _ in 0..<12 { text = "replace(\(text), \"a\", \"aaaaaaaaaa\")" }
        let error = #expect(throws: ExpressionError.self) { try evaluate(text) }
        #expect(error?.message == "the result would hold 1000 bytes, more than the limit of 100")
        // The innermost call that would pass it (the third) is named.
        #expect(error?.column == 1 + 9 * "replace(".count)
    }

    @Test func testEveryGrowingOperationIsBounded() throws {
        let long: [String: MappingValue] = ["x": .string(String(repeating: "b", count: 60))]
        for text in [
            "x + x", "concatenate(x, x)", "join(split(x + \",\" + x, \",\"), x)",
            "string(x) + x",
        ] {
            #expect(throws: ExpressionError.self, "\(text)") { try evaluate(text, long) }
        }
        #expect(
            try evaluate("x + x", limit: 120, long) == .string(String(repeating: "b", count: 120)))
    }

    @Test func testABackquotedNameIsAKeyPathPart() throws {
        let values: [String: MappingValue] = [
            "Culmen Length (mm)": .string("39.1"), "nil": .integer(3), "a b.c": .integer(1),
        ]
        #expect(try evaluate("number(`Culmen Length (mm)`)", values) == .real(39.1))
        #expect(try evaluate("`nil` + 1", values) == .integer(4))
        #expect(try evaluate("`a b`.c", values) == .integer(1))
        #expect(throws: ExpressionError.self) { try ExpressionParser.parse("`open") }
        #expect(throws: ExpressionError.self) { try ExpressionParser.parse("``") }
        #expect(throws: ExpressionError.self) { try ExpressionParser.parse("`lower`(x)") }
    }
}
