import Foundation
import Strata

// MARK: - The seeding part of the demo

extension DemoCommand {
    /// The Recipes seed sample: records drawn by `Samples/Recipes/make-seed.py`.
    var recipesSeedSample: String { "\(samples)/Recipes/seed-recipes.plist" }

    /// The files the seeding part writes, replaced on a rerun.
    static let seedingFiles = ["Recipes-seed.sqlite"]

    /// Builds the seed store an app would ship from the sample, then opens
    /// the app's store twice as an app's first and second start do: the
    /// first seeds it, the second finds it and seeds nothing.
    func runRecipesSeeding() throws {
        let schemasFolder = URL(fileURLWithPath: schemas, isDirectory: true)
        let modelFolder = schemasFolder.appendingPathComponent("Recipes", isDirectory: true)
        let seedPath = "\(directory)/Recipes-seed.sqlite"
        let storePath = "\(directory)/Recipes.sqlite"
        Terminal.output("== Recipes: a store seeded on first run")

        let built = try Seeder(
            storeAt: URL(fileURLWithPath: seedPath), schemas: modelFolder,
            seed: .records(
                URL(fileURLWithPath: recipesSeedSample), format: .plist,
                mapping: URL(fileURLWithPath: "\(samples)/Recipes/seed-recipes.mapping.json"))
        ).seedIfMissing()
        Terminal.output(
            "Seed store     \(seedPath), built from \(recipesSeedSample): "
                + "\(SeedCommand.counts(built.counts))")

        let seed = Seed.store(URL(fileURLWithPath: seedPath))
        let location = StoreLocation.file(URL(fileURLWithPath: storePath))
        let first = try StoreContainer(
            model: "Recipes", schemas: schemasFolder, seed: seed, location: location)
        let record = first.seedRecord
        Terminal.output(
            "First start    \(first.seeding.outcome.rawValue) \(storePath) from "
                + "\(record?.name ?? "?") (seed version \(record?.version ?? 0), store version "
                + "\(first.context.model.version)): \(SeedCommand.counts(first.seeding.counts))"
                + String(format: " in %.2f s", first.seeding.seconds))
        Terminal.output(
            "               seed SHA-256 \(record?.sha256 ?? "?"), kept in its metadata")
        let uuid = first.store.metadata.uuid
        let recipes = try first.context.count("Recipe")
        try first.store.close()

        let second = try StoreContainer(
            model: "Recipes", schemas: schemasFolder, seed: seed, location: location)
        let sameStore = second.store.metadata.uuid == uuid ? "the same store" : "another store"
        Terminal.output(
            "Second start   \(second.seeding.outcome.rawValue): not seeded again; "
                + "\(try second.context.count("Recipe")) recipes (first start: \(recipes)), "
                + "\(sameStore)")
        try second.store.close()

        let reopened = try Store.open(at: URL(fileURLWithPath: storePath), mode: .readOnly)
        let info = try reopened.info(model: second.chain.newest)
        try reopened.close()
        Terminal.output(InfoCommand.render(info))
    }
}
