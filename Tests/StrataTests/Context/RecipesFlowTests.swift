import Foundation
import Testing

import struct StrataContext.SortDescriptor

@testable import Strata
@testable import StrataContext

/// Apple's Recipes sample: a recipe with a type (to-one, to-many inverse), an
/// image (one-to-one, keys on both sides) and ingredients in display order.
struct RecipesFlowTests {
    private struct Kitchen {
        let fixture: ContextFixture
        let recipe: ManagedObject
        let type: ManagedObject
        let image: ManagedObject
        let ingredients: [ManagedObject]
        var context: Context { fixture.context }
    }

    /// A saved "Pancakes" recipe of type "Breakfast", with an image and three
    /// ingredients, added in reverse display order.
    private func pancakes() throws -> Kitchen {
        let fixture = try ContextFixture("Recipes")
        let context = fixture.context
        let type = try context.insert("RecipeType")
        try type.set("name", "Breakfast")
        let recipe = try context.insert("Recipe")
        try recipe.set("name", "Pancakes")
        try recipe.setObject(type, forKey: "type")
        let image = try context.insert("Image")
        try image.setValue(.data(Data([0xFF, 0xD8])), forKey: "image")
        try recipe.setObject(image, forKey: "image")
        var ingredients: [ManagedObject] = []
        for (order, name) in [(3, "Milk"), (2, "Eggs"), (1, "Flour")] {
            let ingredient = try context.insert("Ingredient")
            try ingredient.set("name", name)
            try ingredient.set("displayOrder", Int64(order))
            try recipe.add(ingredient, to: "ingredients")
            ingredients.append(ingredient)
        }
        try context.save()
        return Kitchen(
            fixture: fixture, recipe: recipe, type: type, image: image, ingredients: ingredients)
    }

    private func names(_ objects: [ManagedObject]) throws -> [String?] {
        try objects.map { try $0.string("name") }
    }

    @Test func testRecipeWithTypeImageAndIngredientsSavesAndReloads() throws {
        let kitchen = try pancakes()
        try kitchen.fixture.expectSound()
        let recipeKey = try #require(kitchen.recipe.objectID.primaryKey)
        let imageKey = try #require(kitchen.image.objectID.primaryKey)
        // The one-to-one pair is stored on both sides.
        #expect(
            try kitchen.fixture.integerRows("SELECT Z_PK, ZIMAGE FROM ZRECIPE") == [
                [recipeKey, imageKey]
            ])
        #expect(
            try kitchen.fixture.integerRows("SELECT Z_PK, ZRECIPE FROM ZIMAGE") == [
                [imageKey, recipeKey]
            ])

        let context = try kitchen.fixture.reopened()
        let recipe = try #require(try context.findFirst("Recipe"))
        #expect(try recipe.string("name") == "Pancakes")
        #expect(try recipe.object(forKey: "type")?.string("name") == "Breakfast")
        #expect(try recipe.object(forKey: "image")?.data("image") == Data([0xFF, 0xD8]))
        #expect(try recipe.object(forKey: "image")?.object(forKey: "recipe") === recipe)
        let type = try #require(try recipe.object(forKey: "type"))
        #expect(try type.objects(forKey: "recipes").map(\.objectID) == [recipe.objectID])

        // The ingredient list is shown by displayOrder.
        let listed = try recipe.objects(forKey: "ingredients").sorted {
            (try $0.integer("displayOrder") ?? 0) < (try $1.integer("displayOrder") ?? 0)
        }
        #expect(try names(listed) == ["Flour", "Eggs", "Milk"])
        var request = FetchRequest(entity: "Ingredient")
        request.sortDescriptors = [SortDescriptor("displayOrder")]
        #expect(try names(context.fetch(request)) == ["Flour", "Eggs", "Milk"])
    }

    @Test func testDeletingARecipeCascadesToIngredientsAndImageAndNullifiesItsType() throws {
        let kitchen = try pancakes()
        let context = kitchen.context
        let soup = try context.insert("Recipe")
        try soup.set("name", "Soup")
        try soup.setObject(kitchen.type, forKey: "type")
        try context.save()
        #expect(try kitchen.type.objects(forKey: "recipes").count == 2)
        let typeVersion = "SELECT Z_OPT FROM ZRECIPETYPE"
        let before = try #require(try kitchen.fixture.integer(typeVersion))

        try context.delete(kitchen.recipe)
        try context.save()
        try kitchen.fixture.expectSound()
        #expect(try kitchen.fixture.rows("ZRECIPE") == 1)
        #expect(try kitchen.fixture.rows("ZINGREDIENT") == 0)
        #expect(try kitchen.fixture.rows("ZIMAGE") == 0)
        #expect(try kitchen.fixture.rows("ZRECIPETYPE") == 1)
        #expect(kitchen.image.isDeleted && kitchen.ingredients.allSatisfy(\.isDeleted))
        #expect(!kitchen.type.isDeleted)
        // The type survives; its recipes shrink, in memory and in the store.
        #expect(try kitchen.type.objects(forKey: "recipes").map(\.objectID) == [soup.objectID])
        #expect(try kitchen.fixture.integer(typeVersion) == before + 1)
        let reloaded = try kitchen.fixture.reopened()
        let type = try #require(try reloaded.findFirst("RecipeType"))
        #expect(try names(type.objects(forKey: "recipes")) == ["Soup"])
    }

    @Test func testGivingAnImageToAnotherRecipeTakesItFromTheFirst() throws {
        let kitchen = try pancakes()
        let context = kitchen.context
        let waffles = try context.insert("Recipe")
        try waffles.set("name", "Waffles")
        try context.save()

        try waffles.setObject(kitchen.image, forKey: "image")
        // In memory, at once, on all three objects.
        #expect(try waffles.object(forKey: "image") === kitchen.image)
        #expect(try kitchen.image.object(forKey: "recipe") === waffles)
        #expect(try kitchen.recipe.object(forKey: "image") == nil)
        try context.save()
        try kitchen.fixture.expectSound()

        let pancakesKey = try #require(kitchen.recipe.objectID.primaryKey)
        let wafflesKey = try #require(waffles.objectID.primaryKey)
        let imageKey = try #require(kitchen.image.objectID.primaryKey)
        #expect(
            try kitchen.fixture.integerRows("SELECT Z_PK, ZIMAGE FROM ZRECIPE ORDER BY Z_PK") == [
                [pancakesKey, nil], [wafflesKey, imageKey],
            ])
        #expect(try kitchen.fixture.integerRows("SELECT ZRECIPE FROM ZIMAGE") == [[wafflesKey]])

        let reloaded = try kitchen.fixture.reopened()
        let pancakes = try #require(
            try reloaded.findFirst("Recipe", where: ["name": .string("Pancakes")]))
        #expect(try pancakes.object(forKey: "image") == nil)
        let image = try #require(try reloaded.findFirst("Image"))
        #expect(try image.object(forKey: "recipe")?.string("name") == "Waffles")
    }

    @Test func testStealingFromTheImageSideAlsoClearsTheFormerRecipe() throws {
        let kitchen = try pancakes()
        let context = kitchen.context
        let waffles = try context.insert("Recipe")
        try waffles.set("name", "Waffles")
        try kitchen.image.setObject(waffles, forKey: "recipe")
        #expect(try kitchen.recipe.object(forKey: "image") == nil)
        #expect(try waffles.object(forKey: "image") === kitchen.image)
        try context.save()
        try kitchen.fixture.expectSound()
        #expect(
            try kitchen.fixture.integer("SELECT COUNT(*) FROM ZRECIPE WHERE ZIMAGE IS NULL") == 1)
    }

    @Test func testAnImageWithoutARecipeCannotBeSaved() throws {
        let kitchen = try pancakes()
        let context = kitchen.context
        try kitchen.recipe.setObject(nil, forKey: "image")
        #expect(try kitchen.image.object(forKey: "recipe") == nil)
        #expect(throws: ValidationError.self) { try context.save() }
        try kitchen.fixture.expectSound()
        #expect(
            try kitchen.fixture.integer("SELECT COUNT(*) FROM ZIMAGE WHERE ZRECIPE IS NULL") == 0)
    }
}
