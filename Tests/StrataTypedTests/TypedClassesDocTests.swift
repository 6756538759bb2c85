import Foundation
import Strata
import Testing

/// The code examples of the TypedClasses article and of the doc comments of
/// ``TypedEntity``, ``Context/fetch(_:where:_:sortedBy:)``,
/// ``SwiftClassGenerator`` and ``CodegenError``, compiled and run as
/// written (with the Diary classes generated from version 3).
struct TypedClassesDocTests {
    @Test func testTypedClassesArticleExamples() throws {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("strata-typed-doc-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let storeURL = folder.appendingPathComponent("Diary.sqlite")
        let jpegBytes = Data([0xFF, 0xD8, 0xFF, 0xD9])

        // From TypedClasses.md, "Using them".
        let model = try DiaryModel.loadSchema()
        let store = try Store.create(at: storeURL, model: model)
        let context = try Context(store: store, model: model)

        let entry = DiaryEntry(context: context)
        entry.title = "Paris"
        entry.body = "Landed in Paris at dawn."
        let photo = Medium(context: context)
        photo.type = "image"
        photo.data = jpegBytes
        entry.addToMedia(photo)
        try context.save()

        let found = try context.fetch(
            DiaryEntry.self, where: "body CONTAINS[cd] %@", "paris", sortedBy: "creationTime")
        print(found.map { $0.title ?? "" }, found.first?.media.count ?? 0)
        #expect(found.map(\.title) == ["Paris"])
        #expect(found.first?.media == [photo])

        // From TypedClasses.md, "Errors without try".
        let empty = DiaryEntry(context: context)  // No title: required.
        do {
            try context.save()
        } catch let error as ValidationError {
            print(error.failures.map(\.rule))
            try context.delete(empty)
        }
        #expect(!context.hasChanges)
        try context.save()
        #expect(try context.fetch(DiaryEntry.self).count == 1)
    }

    @Test func testDocCommentExamples() throws {
        let fixture = try TypedFixture(model: try TypedFixture.model("Schemas/Diary", version: 3))
        let context = fixture.context
        do {
            // From TypedEntity's doc comment.
            let entry = DiaryEntry(context: context)
            entry.title = "Paris"
            let photo = Medium(context: context)
            entry.addToMedia(photo)
            photo.type = "image"
            photo.data = Data([1])
            try context.save()
            let found = try context.fetch(DiaryEntry.self, where: "title == %@", "Paris")
            #expect(found == [entry])
        }
        do {
            // From Context.fetch(_:where:_:sortedBy:)'s doc comment.
            let entries = try context.fetch(
                DiaryEntry.self, where: "body CONTAINS[cd] %@", "paris",
                sortedBy: "creationTime")
            let newestFirst = try context.fetch(
                DiaryEntry.self, sortedBy: .descending("creationTime"))
            #expect(entries.isEmpty)
            #expect(newestFirst.count == 1)
        }
        try typedConvenienceExamples(context)
        let outputURL = fixture.folder.appendingPathComponent("Diary.swift")
        let model = fixture.model
        do {
            // From SwiftClassGenerator's doc comment.
            let generated = try SwiftClassGenerator().generate(model, file: "Schemas/Diary/3.json")
            for warning in generated.warnings { print("warning: \(warning)") }
            try generated.write(to: outputURL)  // Atomic; an identical file is left alone.
            #expect(try String(contentsOf: outputURL, encoding: .utf8) == generated.source)
        }
        do {
            // From CodegenError's doc comment.
            let model = Model(
                name: "Diary", version: 1,
                entities: [Entity(name: "Diary entry"), Entity(name: "DiaryEntry")])
            do {
                _ = try SwiftClassGenerator().generate(model, file: "Schemas/Diary/3.json")
            } catch let error as CodegenError {
                print(error)  // Schemas/Diary/3.json: $.entities.DiaryEntry: its class name …
            }
            #expect(throws: CodegenError.self) {
                try SwiftClassGenerator().generate(model, file: "Schemas/Diary/3.json")
            }
        }
    }

    /// The examples of the doc comments of the typed `findAll`, `findFirst`
    /// and `count`, and of `SortDescriptor`'s directions, on a context
    /// holding one entry, "Paris".
    func typedConvenienceExamples(_ context: Context) throws {
        let tag = Tag(context: context)
        tag.name = "Home"
        let later = DiaryEntry(context: context)
        later.title = "Later"
        later.creationTime = Date.distantFuture
        later.wordCount = 150
        do {
            // From SortDescriptor.ascending(_:comparison:)'s doc comment.
            let oldestFirst = try context.findAll(
                DiaryEntry.self, sortedBy: .ascending("creationTime"))
            #expect(oldestFirst.map(\.title) == ["Paris", "Later"])
        }
        do {
            // From SortDescriptor.descending(_:comparison:)'s and Context.findAll(_:sortedBy:)'s.
            let newestFirst = try context.findAll(
                DiaryEntry.self, sortedBy: .descending("creationTime"))
            #expect(newestFirst.map(\.title) == ["Later", "Paris"])
        }
        do {
            // From Context.findFirst(_:where:sortedBy:)'s doc comment.
            let home = try context.findFirst(Tag.self, where: ["name": "Home"])
            let newest = try context.findFirst(
                DiaryEntry.self, sortedBy: .descending("creationTime"))
            #expect(home == tag)
            #expect(newest == later)
        }
        do {
            // From Context.findFirst(_:where:_:sortedBy:)'s doc comment.
            let entry = try context.findFirst(DiaryEntry.self, where: "title == %@", "Paris")
            #expect(entry?.title == "Paris")
        }
        do {
            // From Context.count(_:where:_:)'s doc comment.
            let all = try context.count(DiaryEntry.self)
            let long = try context.count(DiaryEntry.self, where: "wordCount > %@", 100)
            #expect(all == 2)
            #expect(long == 1)
        }
        context.rollback()
    }
}
