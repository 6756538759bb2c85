import Foundation
import Testing

@testable import Strata

/// The Recipes seed sample: what `make-seed.py` draws, kept in
/// `Samples/Recipes/seed-recipes.plist`.
struct RecipesSeedSampleTests {
    /// Width and height from a JPEG's baseline frame header (SOF0), walking
    /// the marker segments from the start; nil when there is none.
    static func baselineSize(of jpeg: Data) -> (width: Int, height: Int)? {
        let bytes = [UInt8](jpeg)
        guard bytes.starts(with: [0xFF, 0xD8]) else { return nil }
        var index = 2
        while index + 9 < bytes.count, bytes[index] == 0xFF {
            let marker = bytes[index + 1]
            let length = Int(bytes[index + 2]) << 8 | Int(bytes[index + 3])
            if marker == 0xC0 {
                return (
                    Int(bytes[index + 7]) << 8 | Int(bytes[index + 8]),
                    Int(bytes[index + 5]) << 8 | Int(bytes[index + 6])
                )
            }
            index += 2 + length
        }
        return nil
    }

    @Test func testADozenRecipesWithTypesOrderedIngredientsAndBaselineJPEGs() throws {
        let recipes = try SeedingFixture.recipes()
        #expect(recipes.count == 12)
        #expect(Set(recipes.map(\.name)).count == 12)
        #expect(Set(recipes.map(\.type)) == ["Breakfast", "Dessert", "Main course", "Soup"])
        for recipe in recipes {
            #expect(recipe.ingredients.count >= 3, "\(recipe.name)")
            let thumbnail = try #require(Self.baselineSize(of: recipe.thumbnail))
            #expect(thumbnail == (48, 48), "\(recipe.name)")
            let photo = try #require(Self.baselineSize(of: recipe.photo))
            #expect(photo == (96, 96), "\(recipe.name)")
            #expect(recipe.thumbnail.suffix(2) == Data([0xFF, 0xD9]))
            #expect(recipe.photo.suffix(2) == Data([0xFF, 0xD9]))
        }
        // Every picture is its own drawing.
        #expect(Set(recipes.map(\.thumbnail)).count == 12)
    }

    static let python = "/usr/bin/python3"

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: python)))
    func testTheCommittedPlistIsWhatTheScriptDraws() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.python)
        process.arguments = [
            SeedingFixture.root.appendingPathComponent("Samples/Recipes/make-seed.py").path,
            "--check",
        ]
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
    }
}
