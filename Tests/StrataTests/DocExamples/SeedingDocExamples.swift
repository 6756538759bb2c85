// swift-format-ignore-file
// Each block is a verbatim copy of a doc example, laid out as the docs lay it out.

import Foundation
import Testing

@testable import Strata
@testable import StrataSchema
@testable import StrataStore
@testable import StrataJobs
@testable import StrataDiagram

// The examples of the seeding docs, as written there (DocExampleCoverageTests
// checks that each block is here); compiled, not run — SeedingDocExampleTests
// runs them on real seeds.
enum SeedingDocExamples {
    /// From Sources/Strata/Strata.docc/Seeding.md.
    static func storeLocation() throws {
        let url = try StoreLocation.applicationData(app: "recipes")
            .storeURL(model: "Recipes", environment: ["HOME": "/home/ann"])
        // /home/ann/.local/share/recipes/Recipes.sqlite
        _ = url
    }

    /// From Sources/StrataJobs/Seeding/Seeder.swift.
    static func seeder(storeURL: URL, recipesSchemasURL: URL, seedURL: URL) throws {
        let seeder = try Seeder(
            storeAt: storeURL, schemas: recipesSchemasURL, seed: .store(seedURL))
        let result = try seeder.seedIfMissing()
        print(result.outcome, result.counts)
    }

    /// From Sources/StrataJobs/Seeding/StoreContainer.swift.
    static func storeContainer(schemasURL: URL, seedURL: URL, storeURL: URL) throws {
        let container = try StoreContainer(
            model: "Recipes", schemas: schemasURL, seed: .store(seedURL),
            location: .file(storeURL))
        let recipes = try container.context.findAll("Recipe")
        _ = recipes
    }
}

// The examples of the diagram docs; compiled, not run (DiagramDocExampleTests
// and the command tests draw real diagrams).
enum DiagramDocExamples {
    /// From Sources/Strata/Strata.docc/Diagrams.md.
    static func article() throws {
        let chain = try SchemaChain.load(directory: URL(fileURLWithPath: "Schemas/Diary"))
        let diagram = ModelDiagram(model: chain.newest)
        try Graphviz.render(diagram.dot, as: .svg, to: URL(fileURLWithPath: "Diary.svg"))

        let changes = try ModelDiagram(chain: chain, from: 1, to: chain.newest.version)
        try Graphviz.render(changes.dot, as: .dot, to: URL(fileURLWithPath: "changes.dot"))
    }

    /// From Sources/StrataDiagram/Diagram/ModelDiagram.swift.
    static func modelDiagram() throws {
        let chain = try SchemaChain.load(directory: URL(fileURLWithPath: "Schemas/Recipes"))
        let diagram = ModelDiagram(model: chain.newest)
        try Graphviz.render(diagram.dot, as: .svg, to: URL(fileURLWithPath: "Recipes.svg"))
    }

    /// From Sources/StrataStore/CoreData/XcodeModelVersionOrder.swift.
    static func versionOrder() throws {
        let order = try XcodeModelVersionOrder(
            folders: ["Model 2.xcdatamodel", "Model.xcdatamodel"], bundleName: "Model",
            current: "Model 2.xcdatamodel")
        print(order.folders)      // ["Model.xcdatamodel", "Model 2.xcdatamodel"]
        print(order.explanation)  // how the order was chosen
    }
}
