import Foundation
import Testing

@testable import Strata
@testable import StrataContext
@testable import StrataCore
@testable import StrataFormats
@testable import StrataSchema
@testable import StrataStore

struct BundleRoundTripTests {
    @Test func testArchivingTwiceGivesIdenticalBytes() throws {
        let fixture = try BundleFixture()
        let first = fixture.folder.file("first.zip")
        let second = fixture.folder.file("second.zip")
        try BundleArchiver(store: fixture.store, model: fixture.model).archive(to: first)
        try BundleArchiver(store: fixture.store, model: fixture.model).archive(to: second)
        #expect(try Data(contentsOf: first) == Data(contentsOf: second))
    }

    @Test func testStoreToBundleToStoreToBundleIsIdenticalWithTheSameFetches() throws {
        let fixture = try BundleFixture()
        let first = fixture.folder.file("first.zip")
        let summary = try BundleArchiver(store: fixture.store, model: fixture.model)
            .archive(to: first)
        #expect(summary.counts == ["DiaryEntry": 3, "Medium": 5, "Tag": 3])
        let restoredURL = fixture.folder.file("Restored.sqlite")
        try BundleUnarchiver(bundle: first).unarchive(to: restoredURL)
        let restored = try Store.open(at: restoredURL)
        let second = fixture.folder.file("second.zip")
        try BundleArchiver(store: restored, model: fixture.model).archive(to: second)
        #expect(try Data(contentsOf: first) == Data(contentsOf: second))
        // Every object, attribute (media bytes included) and link is the same.
        #expect(
            try BundleFixture.snapshot(fixture.store, model: fixture.model)
                == BundleFixture.snapshot(restored, model: fixture.model))
        #expect(try restored.connection.integrityCheck() == ["ok"])
        #expect(try restored.checkRelationships(model: fixture.model).isEmpty)
        #expect(try restored.matchingVersion(in: fixture.chain).version == fixture.model.version)
    }

    @Test func testMediaOncePerContentStoredWhenCompressedAndTheManifestChecksEveryFile() throws {
        let fixture = try BundleFixture()
        let url = fixture.folder.file("diary.zip")
        try BundleArchiver(store: fixture.store, model: fixture.model).archive(to: url)
        let reader = try ZipReader(contentsOf: url)
        let names = reader.entries.map(\.path)
        #expect(names == names.sorted())
        let media = reader.entries.filter { $0.path.hasPrefix("media/") }
        // Five media and one icon, but photo(3) is attached twice and is the icon.
        #expect(media.count == 5)
        #expect(media.filter { $0.path.hasSuffix(".png") }.allSatisfy { $0.compression == .stored })
        #expect(media.filter { $0.path.hasSuffix(".wav") }.map(\.compression) == [.stored])
        #expect(reader.entry(named: "data/DiaryEntry.jsonl")?.compression == .deflated)
        let manifest = try JSONDecoder().decode(
            BundleManifest.self,
            from: try reader.data(of: try #require(reader.entry(named: "manifest.json"))))
        #expect(manifest.files.map(\.path) == names.filter { $0 != "manifest.json" })
        for file in manifest.files {
            let bytes = try reader.data(of: try #require(reader.entry(named: file.path)))
            #expect(SHA256.hex(SHA256.hash(bytes)) == file.sha256)
            #expect(Int64(bytes.count) == file.bytes)
        }
        let readme = String(
            decoding: try reader.data(of: try #require(reader.entry(named: "README.txt"))),
            as: UTF8.self)
        #expect(readme.contains("media/<sha256>.<ext>"))
    }

    @Test func testAnOlderBundleIsMigratedThroughTheChainWithItsMappings() throws {
        let folder = try TemporaryDirectory()
        let chain = try SchemaChain.load(directory: BundleFixture.schemas)
        let first = try #require(chain.model(version: 1))
        let old = try Store.create(at: folder.file("Old.sqlite"), model: first)
        let context = try Context(store: old, model: first)
        let entry = try context.insert("DiaryEntry")
        try entry.set("creationTime", Date(timeIntervalSinceReferenceDate: 800_000_000))
        try entry.set("text", "Paris: day one\nArrived at dawn. #travel")
        let medium = try context.insert("Medium")
        try medium.set("type", "image")
        try medium.setValue(.data(BundleFixture.photo(9)), forKey: "data")
        try medium.setObject(entry, forKey: "diaryEntry")
        try context.save()
        let bundle = folder.file("v1.zip")
        try BundleArchiver(store: old, model: first).archive(to: bundle)

        var options = UnarchiveOptions()
        options.schemas = BundleFixture.schemas
        let target = folder.file("New.sqlite")
        let summary = try BundleUnarchiver(bundle: bundle, options: options).unarchive(to: target)
        #expect(summary.bundleVersion == 1)
        #expect(summary.storeVersion == chain.newest.version)
        let store = try Store.open(at: target)
        #expect(try store.matchingVersion(in: chain).version == chain.newest.version)
        let migrated = try Context(store: store, model: chain.newest)
        let entries = try migrated.findAll("DiaryEntry")
        #expect(entries.count == 1)
        // 1→2 takes the title from the first line and tags from the
        // hashtags; 2→3 splits the title at its colon.
        #expect(try entries.first?.string("title") == "Paris")
        #expect(try entries.first?.string("subtitle") == "day one")
        #expect(
            try entries.first?.objects(forKey: "tags").compactMap { try $0.string("name") } == [
                "travel"
            ])
        #expect(
            try entries.first?.objects(forKey: "media").first?.data("data")
                == BundleFixture.photo(9))
        // Nothing left beside the store.
        #expect(try BundleFixture.listing(folder.url).filter { $0.hasPrefix(".") }.isEmpty)
    }

    @Test func testANewerBundleIsRefusedAndNothingIsWritten() throws {
        let fixture = try BundleFixture()
        let bundle = fixture.folder.file("v3.zip")
        try BundleArchiver(store: fixture.store, model: fixture.model).archive(to: bundle)
        let older = try TemporaryDirectory()
        for name in ["1.json", "2.json", "1-2.mapping.json"] {
            try FileManager.default.copyItem(
                at: BundleFixture.schemas.appendingPathComponent(name), to: older.file(name))
        }
        var options = UnarchiveOptions()
        options.schemas = older.url
        let before = try BundleFixture.listing(fixture.folder.url)
        #expect {
            try BundleUnarchiver(bundle: bundle, options: options)
                .unarchive(to: fixture.folder.file("New.sqlite"))
        } throws: { error in
            (error as? BundleError)?.code == .versionMismatch
                && "\(error)".contains("newer than version 2")
        }
        #expect(try BundleFixture.listing(fixture.folder.url) == before)
    }

    @Test func testAnExistingStoreIsNeverReplaced() throws {
        let fixture = try BundleFixture()
        let bundle = fixture.folder.file("diary.zip")
        try BundleArchiver(store: fixture.store, model: fixture.model).archive(to: bundle)
        let size = FileSystem.size(of: fixture.store.url.path)
        #expect(throws: BundleError.self) {
            try BundleUnarchiver(bundle: bundle).unarchive(to: fixture.store.url)
        }
        #expect(FileSystem.size(of: fixture.store.url.path) == size)
        #expect(throws: ArchiveError.self) {
            try BundleArchiver(store: fixture.store, model: fixture.model).archive(to: bundle)
        }
    }

    @Test func testMergeUpdatesObjectsByUniquenessAndAddsTheRest() throws {
        let fixture = try BundleFixture()
        let bundle = fixture.folder.file("diary.zip")
        try BundleArchiver(store: fixture.store, model: fixture.model).archive(to: bundle)
        // Another diary that already has the tag "travel" and one entry.
        let other = try TemporaryDirectory()
        let otherURL = other.file("Other.sqlite")
        do {
            let store = try Store.create(at: otherURL, model: fixture.model)
            let context = try Context(store: store, model: fixture.model)
            let tag = try context.insert("Tag")
            try tag.set("name", "travel")
            let entry = try context.insert("DiaryEntry")
            try entry.set("title", "Already here")
            try entry.add(tag, to: "tags")
            try context.save()
            try store.close()
        }
        var options = UnarchiveOptions()
        options.merges = true
        try BundleUnarchiver(bundle: bundle, options: options).unarchive(to: otherURL)
        let merged = try Store.open(at: otherURL)
        let context = try Context(store: merged, model: fixture.model)
        #expect(try context.count("DiaryEntry") == 4)
        #expect(try context.count("Tag") == 3)
        #expect(try context.count("Medium") == 5)
        let travel = try #require(try context.findFirst("Tag", where: ["name": .string("travel")]))
        // The existing tag keeps its key and gains the bundle's entries.
        #expect(travel.objectID.key == 1)
        #expect(try travel.objects(forKey: "entries").count == 3)
        #expect(try merged.checkRelationships(model: fixture.model).isEmpty)
        let entry = try #require(
            try context.findFirst(
                "DiaryEntry", where: ["title": .string("Entry 1: ünï \"quoted\"")]))
        #expect(try entry.objects(forKey: "media").count == 3)
        #expect(
            Set(try entry.objects(forKey: "media").compactMap { try $0.data("data") }).count == 3)
    }

    @Test func testMediaCoreDataKeptInExternalFilesAreArchivedFromTheFile() throws {
        let fixture = try BundleFixture(entries: 1)
        // Core Data keeps large values in a file beside the store: 0x02 and its name.
        let external = ExternalBinary.folder(forStoreAt: fixture.store.url)
        try FileManager.default.createDirectory(at: external, withIntermediateDirectories: true)
        let bytes = BundleFixture.photo(11) + Data(repeating: 0x42, count: 700_000)
        try bytes.write(to: external.appendingPathComponent("0C5E-4F1A-EXTERNAL"))
        try fixture.store.connection.execute(
            "UPDATE ZMEDIUM SET ZDATA = ?",
            [.blob(Data([0x02]) + Data("0C5E-4F1A-EXTERNAL\0".utf8))])
        let bundle = fixture.folder.file("diary.zip")
        try BundleArchiver(store: fixture.store, model: fixture.model).archive(to: bundle)
        let name = "media/" + SHA256.hex(SHA256.hash(bytes)) + ".png"
        let reader = try ZipReader(contentsOf: bundle)
        #expect(try reader.data(of: try #require(reader.entry(named: name))) == bytes)
        let restoredURL = fixture.folder.file("Restored.sqlite")
        try BundleUnarchiver(bundle: bundle).unarchive(to: restoredURL)
        let restored = try Context(store: Store.open(at: restoredURL), model: fixture.model)
        #expect(try restored.findAll("Medium").first?.data("data") == bytes)
    }
}
