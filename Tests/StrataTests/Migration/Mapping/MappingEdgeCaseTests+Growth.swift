import Foundation
import Testing

@testable import Strata

// MARK: - Results that would grow without bound (issue 27, point 5)

extension MappingEdgeCaseTests {
    /// Twelve nested `replace(x, "a", "aaaaaaaaaa")` would ask for
    /// terabytes: the run stops at the call whose result would pass the
    /// limit, naming it and the recipe, and the store is as it was.
    @Test func testNestedReplacementsStopTheRunAtTheLimit() throws {
        var expression = "name"
        for _ in 0..<12 { expression = #"replace(\#(expression), \"a\", \"aaaaaaaaaa\")"# }
        let chain = try Self.recipesChain(
            #""summary": { "type": "string", "optional": true }"#,
            mapping: #""summary": "\#(expression)""#,
            recipes: [("aaaa", nil), ("Stew", nil)])

        try expectFailureLeavingTheStore(
            chain,
            naming: "the result would hold 40000000 bytes, more than the limit of 16777216 "
                + "(for Recipe p1 of version 1)")
    }
}
