// swift-format-ignore-file
// Each block is a verbatim copy of a doc example, laid out as the docs lay it out.

// The "Using the library" example of README.md, as written there
// (DocExampleCoverageTests checks that it is here), compiled and run.

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
