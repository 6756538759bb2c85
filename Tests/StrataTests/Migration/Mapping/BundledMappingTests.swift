import Foundation
import Testing

@testable import Strata
@testable import StrataMigration
@testable import StrataSchema

/// The mapping files shipped in `Schemas/`: each loads against its versions,
/// resolves every step that needs it, and gives the expected rows on a
/// populated store.
struct BundledMappingTests {
    typealias S = MappingTestSupport

    private func load(_ name: String, _ from: Int, _ to: Int) throws -> (
        Model, Model, MigrationMapping
    ) {
        let (source, destination) = (try S.bundled(name, from), try S.bundled(name, to))
        let mapping = try #require(
            try MigrationMapping.load(
                directory: S.schemas.appendingPathComponent(name), from: source, to: destination))
        let plan = MigrationPlan(from: source, to: destination)
        let unresolved = plan.steps.filter { $0.label != .inferred && !mapping.covers($0) }
        #expect(unresolved.map(\.names) == [], "\(name) \(from)→\(to)")
        return (source, destination, mapping)
    }

    @Test func testDiaryOneToTwoTitlesAndTagsFromTheText() throws {
        let (v1, v2, mapping) = try load("Diary", 1, 2)
        let fixture = try MappingFixture(v1) { context in
            let texts: [String?] = [
                "\n  A walk by the river  \nWith #Friends and #river views", "#friends again",
                nil, String(repeating: "long ", count: 40),
            ]
            for text in texts {
                let entry = try context.insert("DiaryEntry")
                try entry.set("text", text)
                try entry.setValue(.date(730_857_600), forKey: "creationTime")
            }
            let photo = try context.insert("Medium")
            try photo.set("type", "image")
            try photo.setValue(.data(Data([1, 2, 3])), forKey: "data")
            try photo.setObject(try context.all("DiaryEntry").first, forKey: "diaryEntry")
        }
        let context = try fixture.migrate(to: v2, with: mapping)
        let entries = try context.all("DiaryEntry")
        #expect(
            try entries.map { try $0.string("title") } == [
                "A walk by the river", "#friends again", "Entry of 29 February 2024",
                String(String(repeating: "long ", count: 40).prefix(120)),
            ])
        #expect(
            try entries.map {
                try $0.objects(forKey: "tags").map { try $0.string("name") ?? "" }.sorted()
            }
                == [["friends", "river"], ["friends"], [], []])
        #expect(try context.all("Tag").map { try $0.string("name") } == ["friends", "river"])
        let media = try context.all("Medium")
        #expect(try media.first?.data("data") == Data([1, 2, 3]))
        #expect(try media.first?.object(forKey: "diaryEntry") === entries.first)
    }

    @Test func testDiaryTwoToThreeRenamesAndSplits() throws {
        let (v2, v3, mapping) = try load("Diary", 2, 3)
        let fixture = try MappingFixture(v2) { context in
            let tag = try context.insert("Tag")
            try tag.set("name", "paris")
            for (title, text) in [("Paris: day one", "We  walked\nall day"), ("Home", nil)] {
                let entry = try context.insert("DiaryEntry")
                try entry.set("title", title)
                try entry.set("text", text)
                if title.hasPrefix("Paris") { try entry.add(tag, to: "tags") }
            }
        }
        let context = try fixture.migrate(to: v3, with: mapping)
        let entries = try context.all("DiaryEntry")
        #expect(try entries.map { try $0.string("title") } == ["Paris", "Home"])
        #expect(try entries.map { try $0.string("subtitle") } == ["day one", nil])
        #expect(try entries.map { try $0.string("body") } == ["We  walked\nall day", nil])
        #expect(try entries.map { try $0.integer("wordCount") } == [4, 0])
        #expect(
            try entries.first?.objects(forKey: "tags").map { try $0.string("name") } == ["paris"])
    }

    @Test func testRecipesOneToTwoPrepTimeBecomesMinutes() throws {
        let (v1, v2, mapping) = try load("Recipes", 1, 2)
        let times: [String?] = [
            "45 minutes", "1 hour 30 min", "2 h", "1.5 hours", "20", "a while", nil, "10 Min",
        ]
        let fixture = try MappingFixture(v1) { context in
            let type = try context.insert("RecipeType")
            try type.set("name", "Dessert")
            for (index, time) in times.enumerated() {
                let recipe = try context.insert("Recipe")
                try recipe.set("name", "Recipe \(index)")
                try recipe.set("prepTime", time)
                try recipe.setObject(type, forKey: "type")
            }
        }
        let context = try fixture.migrate(to: v2, with: mapping)
        let recipes = try context.all("Recipe")
        #expect(
            try recipes.map { try $0.integer("prepTime") } == [45, 90, 120, 90, 20, nil, nil, 10])
        #expect(try recipes.map { try $0.string("name") } == times.indices.map { "Recipe \($0)" })
        #expect(
            try recipes.allSatisfy { try $0.object(forKey: "type")?.string("name") == "Dessert" })
    }
}
