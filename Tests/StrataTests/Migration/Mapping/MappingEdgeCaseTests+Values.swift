import Foundation
import Testing

@testable import Strata

// MARK: - Values that do not convert, and text read from a removed attribute

extension MappingEdgeCaseTests {
    static let recipes1 = #"""
        { "Recipe": { "attributes": {
            "name": { "type": "string" },
            "prepTime": { "type": "string", "optional": true } } } }
        """#

    /// Version 2 of the recipes: `prepTime` is gone, Recipe gets the
    /// attribute declarations `attributes`, and `entities` are added.
    static func recipes2(_ attributes: String, entities: String = "") -> String {
        #"""
        { "Recipe": { "attributes": { "name": { "type": "string" }, \#(attributes) } }
          \#(entities) }
        """#
    }

    /// A chain whose mapping sets Recipe's `attributes` (JSON members, or
    /// `rules` for the whole `entities` object), and a store with one
    /// recipe per (name, prepTime) pair.
    static func recipesChain(
        _ declarations: String, entities: String = "", mapping attributes: String = "",
        rules: String? = nil, recipes: [(String, String?)]
    ) throws -> MappingEdgeCaseChain {
        let rules = rules ?? #"{ "Recipe": { "attributes": { \#(attributes) } } }"#
        let chain = try MappingEdgeCaseChain(
            "Recipes", v1: Self.recipes1, v2: Self.recipes2(declarations, entities: entities),
            mapping: #""entities": \#(rules)"#)
        try chain.makeStore { context in
            for (name, prepTime) in recipes {
                let recipe = try context.insert("Recipe")
                try recipe.set("name", name)
                try recipe.set("prepTime", prepTime)
            }
        }
        return chain
    }

    /// Runs a migration that must fail, and checks that it failed with a
    /// message containing `expected` and left the store's files as they were.
    func expectFailureLeavingTheStore(
        _ chain: MappingEdgeCaseChain, naming expected: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let before = try chain.fingerprint()
        do {
            try chain.migrate()
            Issue.record("the migration should have failed", sourceLocation: sourceLocation)
        } catch {
            #expect("\(error)".contains(expected), sourceLocation: sourceLocation)
        }
        #expect(try chain.fingerprint() == before, sourceLocation: sourceLocation)
        #expect(try chain.files() == ["Recipes.sqlite", "Schemas"], sourceLocation: sourceLocation)
        let context = try chain.open(version: 1, sourceLocation: sourceLocation)
        #expect(try context.all("Recipe").count == 2, sourceLocation: sourceLocation)
    }

    /// `number("abc")` is nil, and nil does not fit a required attribute:
    /// the run stops naming the recipe, before anything is written.
    @Test func testTextWithoutANumberIntoARequiredIntegerStopsTheRun() throws {
        let chain = try Self.recipesChain(
            #""minutes": { "type": "integer16" }"#,
            mapping: #""minutes": "round(number(prepTime))""#,
            recipes: [("Soup", "20"), ("Stew", "abc")])

        try expectFailureLeavingTheStore(
            chain,
            naming: "Recipe.minutes: 1 objects have no value, but version 2 requires one "
                + "(Recipe p2)")
    }

    /// A string longer than the attribute's `maxLength` stops the run
    /// naming the recipe, instead of landing in the store.
    @Test func testTextLongerThanMaxLengthStopsTheRun() throws {
        let chain = try Self.recipesChain(
            #""title": { "type": "string", "maxLength": 8 }"#,
            mapping: #""title": "upper(name)""#,
            recipes: [("Soup", nil), ("Minestrone", nil)])

        try expectFailureLeavingTheStore(
            chain,
            naming: "$.entities.Recipe.attributes.title: column 1 of the expression: the text "
                + "has 10 characters; title allows at most 8 (for Recipe p2 of version 1)")
    }

    /// A value outside the attribute's `pattern` stops the run naming the
    /// recipe and the rule.
    @Test func testTextOutsideThePatternStopsTheRun() throws {
        let chain = try Self.recipesChain(
            #""code": { "type": "string", "pattern": "^[A-Z]+$" }"#,
            mapping: #""code": "upper(name)""#,
            recipes: [("Soup", nil), ("Stew 2", nil)])

        try expectFailureLeavingTheStore(
            chain,
            naming: "$.entities.Recipe.attributes.code: column 1 of the expression: the text "
                + "does not match the pattern of code (for Recipe p2 of version 1)")
    }

    /// A number above the attribute's `maxValue` stops the run naming the
    /// recipe and the rule.
    @Test func testNumberAboveMaxValueStopsTheRun() throws {
        let chain = try Self.recipesChain(
            #""minutes": { "type": "integer32", "maxValue": 600 }"#,
            mapping: #""minutes": "round(number(prepTime) ?? 0)""#,
            recipes: [("Soup", "20"), ("Stock", "900")])

        try expectFailureLeavingTheStore(
            chain,
            naming: "$.entities.Recipe.attributes.minutes: column 1 of the expression: the value "
                + "is above the maximum of minutes (for Recipe p2 of version 1)")
    }

    /// A value copied into a created object (same-named attribute, no
    /// expression) obeys its rules too, instead of becoming nil quietly.
    @Test func testCopiedTextLongerThanMaxLengthStopsTheRun() throws {
        let chain = try Self.recipesChain(
            #""minutes": { "type": "integer16", "optional": true }"#,
            entities:
                #", "Card": { "attributes": { "name": { "type": "string", "maxLength": 4 } } }"#,
            rules: #"{ "Card": { "source": "Recipe" } }, "discard": ["Recipe.prepTime"]"#,
            recipes: [("Soup", nil), ("Minestrone", "5")])

        try expectFailureLeavingTheStore(
            chain,
            naming: "$.entities.Card: copying Recipe.name into name: the text has 10 characters; "
                + "name allows at most 4 (for Recipe p2 of version 1)")
    }

    /// The Recipes expression, reading `prepTime` that version 2 removes:
    /// hours and minutes in any spelling become minutes, a bare number
    /// passes, and nil, empty and number-less text become nil.
    @Test func testExpressionOverARemovedTextAttributeHandlesNilAndGarbage() throws {
        let cases: [(String?, Int64?)] = [
            ("1 hour 30 min", 90), ("45 minutes", 45), ("2 h", 120), ("20", 20),
            ("1.5h", 90), (" 3 H 5 M ", 185), ("10 min 2h", 130), ("-3 min", -3),
            (nil, nil), ("", nil), ("   ", nil), ("soon", nil), ("h", nil), ("min 5", nil),
            ("½ h", nil), ("12:30", 12),
        ]
        let expression =
            #"round(coalesce(number(first(matches(lower(prepTime), \"([0-9]+(?:\\\\.[0-9]+)?) *h\"))) * 60 + (number(first(matches(lower(prepTime), \"([0-9]+) *m\"))) ?? 0), number(prepTime)))"#
        let chain = try Self.recipesChain(
            #""minutes": { "type": "integer32", "optional": true }"#,
            mapping: #""minutes": "\#(expression)""#,
            recipes: cases.enumerated().map { ("R\($0.offset)", $0.element.0) })

        try chain.migrate()

        let context = try chain.open()
        let recipes = try context.all("Recipe")
        #expect(try recipes.map { try $0.string("name") } == cases.indices.map { "R\($0)" })
        for (recipe, (input, minutes)) in zip(recipes, cases) {
            #expect(try recipe.integer("minutes") == minutes, "prepTime \(input ?? "nil")")
        }
        #expect(
            try chain.rows(
                context,
                "SELECT COUNT(*) FROM pragma_table_info('ZRECIPE') "
                    + "WHERE name = 'ZPREPTIME'") == [["0"]])
    }
}
