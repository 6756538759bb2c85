// The "Using the library" example of README.md, as written there
// (DocExampleCoverageTests checks that it is here), compiled and run.

import Testing
import Foundation
import Strata

func keepADiary(schemas: URL, storeURL: URL) throws {
    let chain = try SchemaChain.load(directory: schemas)            // Schemas/Diary: 1.json, 2.json, …
    let store = FileManager.default.fileExists(atPath: storeURL.path)
        ? try Store.open(at: storeURL)
        : try Store.create(at: storeURL, model: chain.newest)
    let context = try Context(store: store, model: try store.matchingVersion(in: chain))

    let entry = try context.insert("DiaryEntry")                     // creationTime = now
    try entry.set("title", "Paris")
    try entry.set("body", "Rain on the Seine, then sun.")
    try entry.set("wordCount", 6)
    let photo = try context.insert("Medium")
    try photo.set("type", "image")
    try photo.set("data", Data([0xFF, 0xD8, 0xFF]))
    try entry.add(photo, to: "media")                               // photo's diaryEntry follows
    try context.save()

    let found = try context.fetch(
        "DiaryEntry", where: "body CONTAINS[cd] %@", "seine", sortedBy: "creationTime")
    for entry in found {
        print(try entry.string("title") ?? "", try entry.get("wordCount", as: Int.self) ?? 0)
    }
    try context.delete(entry)                                       // its media go too (cascade)
    do {
        try context.save()
    } catch ContextError.conflict {
        context.rollback()                                          // another writer came first
    }
}

@Suite struct ReadmeDocExampleTests {
    @Test func theLibraryExampleRunsOnTheBundledDiary() throws {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("readme-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let schemas = DocExampleCoverageTests.root.appendingPathComponent("Schemas/Diary")
        let storeURL = folder.appendingPathComponent("Diary.sqlite")
        try keepADiary(schemas: schemas, storeURL: storeURL)   // creates the store
        try keepADiary(schemas: schemas, storeURL: storeURL)   // opens it
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
