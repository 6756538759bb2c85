import Foundation
import Testing

import struct StrataContext.SortDescriptor

@testable import Strata
@testable import StrataContext
@testable import StrataCore
@testable import StrataFormats
@testable import StrataQuery
@testable import StrataSchema
@testable import StrataStore

/// The round trip on the generated diary of the benchmarks: 100,000 entries
/// and 2,000 media files from `../shared/bench/gen.py`. Slow (a minute or
/// two): runs only with `STRATA_LARGE=1`.
struct BundleLargeRoundTripTests {
    static let isEnabled = ProcessInfo.processInfo.environment["STRATA_LARGE"] == "1"

    static let generator = ContextFixture.schemas.deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("shared/bench/gen.py")

    @Test(.enabled(if: isEnabled)) func testGeneratedDiaryRoundTripsToIdenticalBundles() throws {
        let folder = try TemporaryDirectory()
        let corpus = folder.file("corpus")
        let python = Process()
        python.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        python.arguments = [
            "python3", Self.generator.path, corpus.path, "--rows", "0", "--entries", "100000",
            "--media", "2000",
        ]
        try python.run()
        python.waitUntilExit()
        try #require(python.terminationStatus == 0)

        let chain = try SchemaChain.load(directory: BundleFixture.schemas)
        let model = chain.newest
        let storeURL = folder.file("Diary.sqlite")
        let store = try Store.create(at: storeURL, model: model) { fresh in
            var options = ImportOptions(entity: "DiaryEntry")
            options.errorPolicy = .abort
            let importer = try Importer(store: fresh, model: model, options: options)
            _ = try importer.run(
                try TextBlockReader(path: corpus.appendingPathComponent("diary.txt").path))
            // One Medium per media file, attached to an entry.
            let context = try Context(store: fresh, model: model)
            let media = corpus.appendingPathComponent("media")
            let files = try FileManager.default.contentsOfDirectory(atPath: media.path).sorted()
            let entries = try context.findAll("DiaryEntry")
            for (index, file) in files.enumerated() {
                let medium = try context.insert("Medium")
                try medium.set("type", file.hasSuffix(".wav") ? "sound" : "image")
                try medium.setValue(
                    .data(try Data(contentsOf: media.appendingPathComponent(file))), forKey: "data")
                try medium.setObject(entries[(index * 37) % entries.count], forKey: "diaryEntry")
            }
            try context.save()
        }
        let first = folder.file("first.zip")
        let summary = try BundleArchiver(store: store, model: model).archive(to: first)
        #expect(summary.counts["DiaryEntry"] == 100_000)
        #expect(summary.mediaFiles == 2_000)
        let restoredURL = folder.file("Restored.sqlite")
        try BundleUnarchiver(bundle: first).unarchive(to: restoredURL)
        let restored = try Store.open(at: restoredURL)
        let second = folder.file("second.zip")
        try BundleArchiver(store: restored, model: model).archive(to: second)
        #expect(try Data(contentsOf: first) == Data(contentsOf: second))

        // Every row of every table (media bytes included) is the same.
        let connection = restored.connection
        try connection.execute("ATTACH DATABASE ? AS original", [.text(storeURL.path)])
        let layout = StoreLayout(model: model)
        for table in layout.entityTables.map(\.name) + layout.joinTables.map(\.name) {
            let columns = try connection.columns(ofTable: table).map(\.name)
                .filter { $0 != "Z_OPT" }.map(SQLiteIdentifier.quoted).joined(separator: ", ")
            let differing = try connection.scalar(
                """
                SELECT (SELECT count(*) FROM (SELECT \(columns) FROM main.\(table)
                        EXCEPT SELECT \(columns) FROM original.\(table)))
                     + (SELECT count(*) FROM (SELECT \(columns) FROM original.\(table)
                        EXCEPT SELECT \(columns) FROM main.\(table)))
                """)?.int64Value
            #expect(differing == 0, "\(table)")
        }
        // And fetches through the context agree.
        var request = FetchRequest(entity: "DiaryEntry")
        request.predicate = try FetchPredicate("ANY tags.name == 'coffee'")
        request.sortDescriptors = [SortDescriptor("creationTime", ascending: false)]
        request.fetchLimit = 50
        let before = try Context(store: store, model: model).fetch(request).map {
            "\($0.objectID) \(try $0.string("title") ?? "")"
        }
        let after = try Context(store: restored, model: model).fetch(request).map {
            "\($0.objectID) \(try $0.string("title") ?? "")"
        }
        #expect(before == after)
        #expect(!before.isEmpty)
    }
}
