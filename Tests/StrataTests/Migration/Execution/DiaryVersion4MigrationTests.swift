import Foundation
import Testing

@testable import Strata
@testable import StrataContext
@testable import StrataMigration
@testable import StrataSchema
@testable import StrataStore

/// Diary version 3 → 4 (what Day One needs) is inferred: every entry,
/// medium and tag is kept with its values, the new attributes take their
/// defaults, and the store ends with version 4's hashes.
struct DiaryVersion4MigrationTests {
    @Test func testAVersion3StoreMigratesToVersion4KeepingItsData() throws {
        let folder = try TemporaryDirectory()
        let schemas = ContextFixture.schemas.appendingPathComponent("Diary")
        let chain = try SchemaChain.load(directory: schemas)
        let v3 = try #require(chain.model(version: 3))
        let v4 = try #require(chain.model(version: 4))
        let url = folder.file("Diary.sqlite")
        let photo = Data([0xFF, 0xD8, 0xFF] + Array(repeating: 9, count: 50))
        do {
            let store = try Store.create(at: url, model: v3)
            defer { try? store.close() }
            let context = try Context(store: store, model: v3)
            let entry = try context.insert("DiaryEntry")
            try entry.set("title", "Paris")
            try entry.set("subtitle", "day one")
            try entry.set("body", "Walked by the river")
            try entry.set("creationTime", Date(timeIntervalSinceReferenceDate: 700_000_000))
            let medium = try context.insert("Medium")
            try medium.set("type", "image")
            try medium.setValue(.data(photo), forKey: "data")
            try medium.setObject(entry, forKey: "diaryEntry")
            let tag = try context.insert("Tag")
            try tag.set("name", "travel")
            try entry.add(tag, to: "tags")
            try context.save()
        }
        var options = MigrationOptions()
        options.keepsBackup = false
        let report = try Migrator(storeAt: url, schemas: schemas, options: options).run()
        #expect(report.finalVersion == 4)
        let store = try Store.open(at: url)
        defer { try? store.close() }
        #expect(store.metadata.versionHashes == v4.versionHashes.mapValues { Data($0) })
        let context = try Context(store: store, model: v4)
        let entry = try #require(try context.findFirst("DiaryEntry"))
        #expect(try entry.string("title") == "Paris" && entry.string("subtitle") == "day one")
        #expect(try entry.string("body") == "Walked by the river")
        #expect(try entry.date("creationTime") == Date(timeIntervalSinceReferenceDate: 700_000_000))
        #expect(try entry.bool("starred") == false && entry.bool("pinned") == false)
        #expect(try entry.string("uuid") == nil && entry.string("placeName") == nil)
        let medium = try #require(try entry.objects(forKey: "media").first)
        #expect(try medium.data("data") == photo && medium.integer("orderInEntry") == 0)
        #expect(try entry.objects(forKey: "tags").map { try $0.string("name") } == ["travel"])
        // Version 4 takes the media kinds Day One has.
        let video = try context.insert("Medium")
        try video.set("type", "video")
        try video.setObject(entry, forKey: "diaryEntry")
        try context.save()
    }
}
