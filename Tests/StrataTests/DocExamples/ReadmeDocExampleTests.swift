import Foundation
import Strata
import Testing

/// Runs the README's library example (READMEDocExamples.swift) and checks
/// its dependency lines.
struct ReadmeDocExampleTests {
    @Test func theLibraryExampleRunsOnTheBundledDiary() throws {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("readme-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let schemas = DocExampleCoverageTests.root.appendingPathComponent("Schemas/Diary")
        let storeURL = folder.appendingPathComponent("Diary.sqlite")
        try keepADiary(schemas: schemas, storeURL: storeURL)  // creates the store
        try keepADiary(schemas: schemas, storeURL: storeURL)  // opens it
        let store = try Store.open(at: storeURL, mode: .readOnly)
        let chain = try SchemaChain.load(directory: schemas)
        let context = try Context(
            store: store, model: try store.matchingVersion(in: chain), access: .readOnlyBestEffort)
        #expect(try context.count("DiaryEntry") == 0)
        #expect(try context.count("Medium") == 0)
    }

    /// The dependency lines of the README name this package and its library
    /// product, as Package.swift declares them.
    @Test func theDependencyLinesNameThePackageAndProduct() throws {
        let readmeLines = """
            .package(path: "../Strata"),
            .target(name: "DiaryApp", dependencies: [.product(name: "Strata", package: "Strata")]),
            """
        let manifest = try String(
            contentsOf: DocExampleCoverageTests.root.appendingPathComponent("Package.swift"),
            encoding: .utf8)
        #expect(manifest.contains(#"name: "Strata","#))
        #expect(manifest.contains(#".library(name: "Strata", targets: ["Strata"])"#))
        #expect(readmeLines.contains(#".product(name: "Strata", package: "Strata")"#))
    }
}
