import Foundation
import Testing

/// Issue 27, point 4: `strata import --mapping` with a broken expression
/// stops with the mapping file's place, and leaves no store and no work
/// file behind.
struct ImportMappingCommandTests {
    private let folder: ScratchFolder

    init() throws {
        folder = try ScratchFolder()
    }

    private func importing(_ expression: String) throws -> StrataRunner.Outcome {
        let input = folder.path("recipes.csv")
        try Data("name,num\nSoup,45\n".utf8).write(to: URL(fileURLWithPath: input))
        let mapping = folder.path("m.mapping.json")
        let escaped = expression.replacingOccurrences(of: "\"", with: "\\\"")
        try Data(
            """
            {"format": "strata-import/1", "entity": "Recipe",
             "compute": {"prepTime": "\(escaped)"}}
            """.utf8
        ).write(to: URL(fileURLWithPath: mapping))
        return try StrataRunner.run([
            "import", folder.path("R.sqlite"), input, "--schemas", "Schemas/Recipes",
            "--mapping", mapping,
        ])
    }

    private func leftovers() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path("."))
            .filter { $0 != "recipes.csv" && $0 != "m.mapping.json" }.sorted()
    }

    @Test(arguments: ["lower()", "before(num)", "replace(num)", "round()", "matches(num)"])
    func testTooFewArgumentsStopWithTheirPlace(expression: String) throws {
        let outcome = try importing(expression)
        #expect(outcome.status == 1, "\(outcome.stderr)")
        #expect(outcome.stderr.hasPrefix("error: \(folder.path("m.mapping.json")):2:"))
        #expect(outcome.stderr.contains("takes"))
        #expect(try leftovers() == [])
    }

    @Test func testAFieldTheInputLacksStopsWithTheExpressionsColumn() throws {
        let outcome = try importing("integer(nmu)")
        #expect(outcome.status == 1)
        #expect(
            outcome.stderr
                == "error: \(folder.path("m.mapping.json")):2:35 (at $.compute.prepTime): in the "
                + "expression for prepTime: the input has no field 'nmu'; its fields: name, num\n")
        #expect(try leftovers() == [])
    }
}
