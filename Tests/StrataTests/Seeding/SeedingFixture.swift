import Foundation
import Testing

@testable import Strata
@testable import StrataContext
@testable import StrataSchema
@testable import StrataStore

/// The Recipes seed the seeding tests start from: the project's sample
/// (`Samples/Recipes/seed-recipes.plist`, a dozen recipes with JPEG
/// thumbnails and photos) read as plain values, and stores made from it.
enum SeedingFixture {
    static let root = ContextFixture.schemas.deletingLastPathComponent()
    static let schemas = ContextFixture.schemas
    static let recipesSchemas = schemas.appendingPathComponent("Recipes")
    static let samplePlist = root.appendingPathComponent("Samples/Recipes/seed-recipes.plist")
    static let sampleMapping = root.appendingPathComponent(
        "Samples/Recipes/seed-recipes.mapping.json")

    /// One recipe of the sample.
    struct Recipe: Equatable {
        var name: String
        var type: String
        var minutes: Int
        var thumbnail: Data
        var photo: Data
        var ingredients: [String]
    }

    /// The sample's recipes, in file order.
    static func recipes() throws -> [Recipe] {
        let data = try Data(contentsOf: samplePlist)
        let items = try #require(
            try PropertyListSerialization.propertyList(from: data, format: nil) as? [[String: Any]])
        return try items.map { item in
            let ingredients = try #require(item["ingredients"] as? [[String: Any]])
            let ordered = ingredients.sorted {
                ($0["displayOrder"] as? Int ?? 0) < ($1["displayOrder"] as? Int ?? 0)
            }
            return Recipe(
                name: try #require(item["name"] as? String),
                type: try #require(item["type"] as? String),
                minutes: try #require(item["prepTime"] as? Int),
                thumbnail: try #require(item["thumbnailImage"] as? Data),
                photo: try #require((item["image"] as? [String: Any])?["image"] as? Data),
                ingredients: ordered.map { $0["name"] as? String ?? "" })
        }
    }

    /// A version-1 Recipes store as Core Data (framework 241) wrote Apple's
    /// `Recipes.sqlite`: Apple's four entity hashes, free-text preparation
    /// times, no Strata keys and none of the later frameworks' digests.
    /// Ingredients are inserted in reverse, so only `displayOrder` orders them.
    @discardableResult
    static func makeCoreDataVersionOneStore(at url: URL) throws -> [Recipe] {
        let recipes = try recipes()
        let chain = try SchemaChain.load(directory: recipesSchemas)
        let v1 = try #require(chain.model(version: 1))
        let store = try Store.create(at: url, model: v1)
        let context = try Context(store: store, model: v1)
        var types: [String: ManagedObject] = [:]
        for recipe in recipes {
            let object = try context.insert("Recipe")
            try object.set("name", recipe.name)
            try object.set("prepTime", "\(recipe.minutes) min")
            try object.setValue(.data(recipe.thumbnail), forKey: "thumbnailImage")
            let type: ManagedObject
            if let known = types[recipe.type] {
                type = known
            } else {
                type = try context.insert("RecipeType")
                try type.set("name", recipe.type)
                types[recipe.type] = type
            }
            try object.setObject(type, forKey: "type")
            let image = try context.insert("Image")
            try image.setValue(.data(recipe.photo), forKey: "image")
            try object.setObject(image, forKey: "image")
            for (order, name) in recipe.ingredients.enumerated().reversed() {
                let ingredient = try context.insert("Ingredient")
                try ingredient.set("name", name)
                try ingredient.set("displayOrder", Int64(order))
                try object.add(ingredient, to: "ingredients")
            }
        }
        try context.save()
        var metadata = store.metadata
        metadata.frameworkVersion = 241
        metadata.hashesDigest = nil
        metadata.checksum = nil
        metadata.modelName = nil
        metadata.modelVersion = nil
        metadata.modelSchema = nil
        try store.connection.inTransaction(.immediate) { try store.writeMetadata(metadata) }
        try store.close()
        return recipes
    }

    /// The recipes of an open Recipes context at the newest version, in
    /// the fixture's terms, ordered by name.
    static func recipes(in context: Context) throws -> [Recipe] {
        try context.findAll("Recipe").map { object in
            let ingredients = try object.objects(forKey: "ingredients").sorted {
                (try $0.integer("displayOrder") ?? 0) < (try $1.integer("displayOrder") ?? 0)
            }
            return Recipe(
                name: try object.string("name") ?? "",
                type: try object.object(forKey: "type")?.string("name") ?? "",
                minutes: Int(try object.integer("prepTime") ?? -1),
                thumbnail: try object.data("thumbnailImage") ?? Data(),
                photo: try object.object(forKey: "image")?.data("image") ?? Data(),
                ingredients: try ingredients.map { try $0.string("name") ?? "" })
        }.sorted { $0.name < $1.name }
    }

    /// Names in `folder` other than the store's own files: what a seeding
    /// left behind.
    static func strayFiles(in folder: URL, store: String = "Recipes.sqlite") throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).filter {
            ![store, store + "-wal", store + "-shm"].contains($0)
        }.sorted()
    }
}
