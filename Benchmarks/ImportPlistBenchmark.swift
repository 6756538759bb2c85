import Foundation
import Strata

/// Importing `recipes.plist` (recipes with nested ingredients and a `type`
/// string) with `strata import` into a fresh `Recipes` store, with the
/// corpus's mapping file (`Samples/Recipes/gen-recipes.mapping.json`: the
/// generator writes `prepTime` as text, `45 min`, which it computes into the
/// integer attribute), against
/// Python's `plistlib` merely parsing the same file: the whole import,
/// relationships linked, should cost no more than that parse.
///
/// The corpus has N / 10 diary entries, hence min(N / 10, 20,000) recipes:
/// 20,000 at the default 1,000,000 rows. After every run the store holds
/// every recipe with its `prepTime`, every ingredient linked to its recipe,
/// one `RecipeType` per
/// distinct type (all counted from the file, untimed), `Z_MAX`es to match,
/// and passes `PRAGMA integrity_check`.
struct ImportPlistBenchmark: Benchmark {
    let name = "import-plist"
    let summary = "strata import recipes.plist vs Python plistlib parsing it (issue 10)"
    let defaultRows = 1_000_000

    func plan(in environment: BenchEnvironment) throws -> BenchPlan {
        let corpus = try Corpus.prepare(
            entries: ImportDiaryBenchmark.entries(forRows: environment.corpus.rows),
            generator: environment.generator, cache: environment.cache)
        let file = corpus.recipesPlist
        let bytes = Corpus.size(of: file)
        let census = try InputCensus.recipes(file)
        let store = try ImportStore(
            url: environment.workspace.appendingPathComponent("strata.sqlite"),
            schemas: environment.packageRoot.appendingPathComponent(
                "Schemas/Recipes", isDirectory: true))
        let recipe = try store.entity("Recipe")
        let ingredient = try store.entity("Ingredient")
        let mapping = environment.packageRoot.appendingPathComponent(
            "Samples/Recipes/gen-recipes.mapping.json")
        let prepTime = try store.column("prepTime", of: "Recipe")
        let recipeOfIngredient = try store.foreignKey("recipe", of: "Ingredient")
        let typeOfRecipe = try store.foreignKey("type", of: "Recipe")
        let strata = try StrataProgram.locate(besides: environment.executable)
        let python = try ChildCommand.locate("python3", hint: "the peer is Python's plistlib")

        let strataSide = Contender(
            title: "strata import recipes.plist",
            prepareRun: {
                try store.recreate()
                return ChildCommand(
                    executable: strata,
                    arguments: [
                        "import", store.url.path, file.path, "--schemas", store.schemas.path,
                        "--entity", "Recipe", "--mapping", mapping.path,
                    ])
            },
            verify: {
                try store.verify(
                    counts: [
                        "Recipe": census.recipes, "Ingredient": census.ingredients,
                        "RecipeType": census.types,
                    ]
                ) { connection in
                    try store.expect(
                        connection,
                        "SELECT count(\(recipeOfIngredient)) FROM \(ingredient.tableName)",
                        equals: census.ingredients, "ingredients linked to a recipe")
                    try store.expect(
                        connection, "SELECT count(\(typeOfRecipe)) FROM \(recipe.tableName)",
                        equals: census.recipes, "recipes linked to a type")
                    try store.expect(
                        connection, "SELECT count(\(prepTime)) FROM \(recipe.tableName)",
                        equals: census.recipes, "recipes with a prepTime")
                }
            }, inputBytes: bytes)
        let peer = Contender(
            title: "python3 plistlib.load (parse only)",
            prepareRun: {
                ChildCommand(
                    executable: python,
                    arguments: [
                        "-c", "import plistlib, sys; plistlib.load(open(sys.argv[1], 'rb'))",
                        file.path,
                    ])
            },
            verify: {}, inputBytes: bytes)
        log(
            "\(name): \(census.recipes) recipes, \(census.ingredients) ingredients, "
                + "\(census.types) types")
        return BenchPlan(
            strata: strataSide, peer: peer, compare: {},
            targets: [BenchTarget(figure: .time(against: 1), limit: 1.0)])
    }
}
