import Foundation
import Strata
import Testing

/// `StoreContainer(model:)` from a generated model alone: no schema files
/// anywhere near the store, the classes registered on its context.
struct TypedStoreContainerTests {
    /// A temporary folder holding only a JSON seed of two notes.
    final class Folder {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("strata-typed-container-\(UUID().uuidString)")
        var seedURL: URL { url.appendingPathComponent("notes.json") }
        var storeURL: URL { url.appendingPathComponent("data/Notes.sqlite") }

        init() throws {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
            let records = """
                [{"title": "old", "date": "2024-01-01T09:00:00Z", "body": "first"},
                 {"title": "new", "date": "2024-06-01T09:00:00Z"}]
                """
            try Data(records.utf8).write(to: seedURL)
        }

        deinit { try? FileManager.default.removeItem(at: url) }  // Best effort: tmp.
    }

    @Test func testSeedsFromRecordsThenFindsTheStore() throws {
        let folder = try Folder()
        let seed = Seed.records(folder.seedURL, format: .json, entity: "Note")
        let container = try StoreContainer(
            model: NotesModel.self, seed: seed, location: .file(folder.storeURL))
        #expect(container.seeding.outcome == .seeded)
        #expect(container.chain.versions.map(\.version) == [1])
        let context = container.context
        // Registered up front: even an untyped fetch hands out Notes.
        #expect(try context.findAll("Note").allSatisfy { $0 is Note })
        let newestFirst = try context.findAll(Note.self, sortedBy: .descending("date"))
        #expect(newestFirst.map(\.title) == ["new", "old"])
        #expect(try context.count(Note.self) == 2)

        let note = Note(context: context)
        note.title = "third"
        try context.save()
        let again = try StoreContainer(
            model: NotesModel.self, seed: seed, location: .file(folder.storeURL))
        #expect(again.seeding.outcome == .existing)
        #expect(try again.context.count(Note.self) == 3)
    }

    @Test func testWithoutASeedTheStoreIsEmpty() throws {
        let folder = try Folder()
        let context = try StoreContainer(model: NotesModel.self, location: .file(folder.storeURL))
            .context
        #expect(try context.count(Note.self) == 0)
        #expect(context.model.version == NotesModel.version)
    }

    /// The spellings of issue 29 with the default location, pointed at a
    /// temporary data folder through `XDG_DATA_HOME` (no other test opens
    /// a store at the default location).
    @Test func testTheDefaultLocationSpellings() throws {
        let folder = try Folder()
        let previous = ProcessInfo.processInfo.environment["XDG_DATA_HOME"]
        setenv("XDG_DATA_HOME", folder.url.appendingPathComponent("xdg").path, 1)
        defer {
            if let previous {
                setenv("XDG_DATA_HOME", previous, 1)
            } else {
                unsetenv("XDG_DATA_HOME")
            }
        }
        let url = folder.seedURL
        let container = try StoreContainer(
            model: NotesModel.self, seed: .records(url, format: .json, entity: "Note"))
        #expect(container.storeURL.path.hasPrefix(folder.url.appendingPathComponent("xdg").path))
        #expect(container.storeURL.lastPathComponent == "Notes.sqlite")
        let context = try StoreContainer(model: NotesModel.self).context
        #expect(try context.count(Note.self) == 2)
        #expect(try context.findFirst(Note.self, where: "title == %@", "old")?.body == "first")
    }

    @Test func testAnOlderStoreIsRefusedNotMigrated() throws {
        let folder = try Folder()
        let diary = TypedFixture.packageRoot.appendingPathComponent("Schemas/Diary")
        let chain = try SchemaChain.load(directory: diary)
        let old = try #require(chain.model(version: 1))
        let storeURL = folder.url.appendingPathComponent("Diary.sqlite")
        try Store.create(at: storeURL, model: old).close()

        let error = try #require(throws: MigrationError.self) {
            _ = try StoreContainer(model: DiaryModel.self, location: .file(storeURL))
        }
        #expect(error.code == .unknownStoreVersion)
        #expect(error.message.contains("DiaryModel carries version 3 only"))
        let untouched = try Store.open(at: storeURL, mode: .readOnly)
        #expect(try untouched.matchingVersion(in: chain).version == 1)
        try untouched.close()

        // With the model's folder up to the classes' version the container
        // migrates it, and the classes fit its context.
        let upToThree = folder.url.appendingPathComponent("Diary")
        try FileManager.default.createDirectory(at: upToThree, withIntermediateDirectories: true)
        for name in ["1.json", "2.json", "3.json", "1-2.mapping.json", "2-3.mapping.json"] {
            try FileManager.default.copyItem(
                at: diary.appendingPathComponent(name), to: upToThree.appendingPathComponent(name))
        }
        let migrated = try StoreContainer(
            model: "Diary", schemas: upToThree, location: .file(storeURL))
        #expect(migrated.migration != nil)
        #expect(try migrated.context.count(DiaryEntry.self) == 0)
        let typed = try StoreContainer(model: DiaryModel.self, location: .file(storeURL))
        #expect(typed.migration == nil)
        #expect(typed.seeding.outcome == .existing)
    }

    @Test func testANewerStoreIsRefusedToo() throws {
        let folder = try Folder()
        let chain = try SchemaChain.load(
            directory: TypedFixture.packageRoot.appendingPathComponent("Schemas/Diary"))
        let storeURL = folder.url.appendingPathComponent("Diary.sqlite")
        try Store.create(at: storeURL, model: chain.newest).close()
        #expect(chain.newest.version > DiaryModel.version)
        let error = try #require(throws: MigrationError.self) {
            _ = try StoreContainer(model: DiaryModel.self, location: .file(storeURL))
        }
        #expect(error.message.contains("the store holds Diary version \(chain.newest.version)"))
    }

    @Test func testTheTypedClassesArticleExample() throws {
        let folder = try Folder()
        let entriesURL = folder.url.appendingPathComponent("entries.json")
        let records = """
            [{"title": "Paris", "body": "Rain on the Seine.", "wordCount": 4},
             {"title": "Rome", "wordCount": 9}, {"title": "Nice", "wordCount": 1}]
            """
        try Data(records.utf8).write(to: entriesURL)
        let storeURL = folder.url.appendingPathComponent("Diary.sqlite")
        // From TypedClasses.md, "Opening the store and finding objects".
        let container = try StoreContainer(
            model: DiaryModel.self, seed: .records(entriesURL, format: .json, entity: "DiaryEntry"),
            location: .file(storeURL))
        let context = container.context
        let newestFirst = try context.findAll(
            DiaryEntry.self, sortedBy: .descending("creationTime"))
        let byTitle = try context.fetch(
            DiaryEntry.self, where: "wordCount > %@", 3,
            sortedBy: "title", .descending("creationTime"))
        let paris = try context.findFirst(DiaryEntry.self, where: "title == %@", "Paris")
        let count = try context.count(DiaryEntry.self)
        print(newestFirst.count, byTitle.count, paris?.body ?? "", count)
        #expect(newestFirst.count == 3)
        #expect(byTitle.map(\.title) == ["Paris", "Rome"])
        #expect(paris?.body == "Rain on the Seine.")
    }

    @Test func testASeedOfAnotherVersionIsRefused() throws {
        let folder = try Folder()
        let chain = try SchemaChain.load(
            directory: TypedFixture.packageRoot.appendingPathComponent("Schemas/Diary"))
        let seedURL = folder.url.appendingPathComponent("seed.sqlite")
        try Store.create(at: seedURL, model: try #require(chain.model(version: 2))).close()
        let storeURL = folder.url.appendingPathComponent("Diary.sqlite")
        let error = try #require(throws: SeedingError.self) {
            _ = try StoreContainer(
                model: DiaryModel.self, seed: .store(seedURL), location: .file(storeURL))
        }
        #expect(error.code == .badSeed)
        #expect(!FileManager.default.fileExists(atPath: storeURL.path))
    }

    @Test func testTheDocCommentExample() throws {
        let folder = try Folder()
        let entriesURL = folder.url.appendingPathComponent("entries.json")
        try Data(#"[{"title": "Paris", "Date": "2024-05-01T08:00:00Z"}, {"title": "Rome"}]"#.utf8)
            .write(to: entriesURL)
        let storeURL = folder.url.appendingPathComponent("Diary.sqlite")
        // From StoreContainer.init(model:seed:location:options:)'s doc comment.
        let container = try StoreContainer(
            model: DiaryModel.self, seed: .records(entriesURL, format: .json, entity: "DiaryEntry"),
            location: .file(storeURL))
        let newestFirst = try container.context.findAll(
            DiaryEntry.self, sortedBy: .descending("creationTime"))
        #expect(newestFirst.map(\.title) == ["Rome", "Paris"])
    }
}
