import Foundation
import Testing

import struct StrataContext.SortDescriptor

@testable import Strata
@testable import StrataContext
@testable import StrataFormats
@testable import StrataQuery
@testable import StrataStore

/// The code examples of the export and bundle documentation (the
/// ExportingData and Bundles articles, ``Exporter``, ``ExportOptions``,
/// ``ExportError``, ``MediaType``, ``BundleArchiver``, ``BundleUnarchiver``
/// and ``UnarchiveOptions``), compiled and run as written.
struct ExportDocExampleTests {
    @Test func testExportingDataArticleAndExportOptionsExamples() throws {
        let fixture = try ImportFixture("Recipes")
        _ = try fixture.run(
            try PropertyListRecordReader(
                path: ContextFixture.schemas.deletingLastPathComponent()
                    .appendingPathComponent("Samples/Recipes/recipes.plist").path),
            ImportOptions(entity: "Recipe"))
        try fixture.store.close()
        let storeURL = fixture.store.url
        let outputPath = fixture.folder.file("quick.plist").path

        // From ExportingData.md.
        let store = try Store.open(at: storeURL, mode: .readOnly)
        let model = try store.resolveModel(schemas: nil).requiredModel()
        var options = ExportOptions(entity: "Recipe")
        options.predicate = try FetchPredicate("prepTime < 30")
        options.sortDescriptors = [SortDescriptor("name")]
        options.fields = ["name", "prepTime", "ingredients"]
        options.nested = ["ingredients"]
        let summary = try Exporter(store: store, model: model, options: options)
            .run(to: outputPath, format: .plist)
        print(summary.records)
        #expect(summary.records > 0)
        #expect(FileManager.default.fileExists(atPath: outputPath))

        do {
            // From ExportOptions' doc comment.
            var options = ExportOptions(entity: "Recipe")
            options.predicate = try FetchPredicate("prepTime < 30")
            options.sortDescriptors = [SortDescriptor("name")]
            options.nested = ["ingredients"]
            let again = try Exporter(store: store, model: model, options: options)
                .run(to: fixture.folder.file("documented.json").path, format: .json)
            #expect(again.records == summary.records)
        }
    }

    @Test func testExporterAndExportErrorExamples() throws {
        let fixture = try ImportFixture("Contacts")
        try fixture.store.close()
        let storeURL = fixture.store.url
        let outputPath = fixture.folder.file("contacts.csv").path

        // From Exporter's doc comment.
        let store = try Store.open(at: storeURL, mode: .readOnly)
        let model = try store.resolveModel(schemas: nil).requiredModel()
        var options = ExportOptions(entity: "Contact")
        options.sortDescriptors = [SortDescriptor("lastName")]
        let summary = try Exporter(store: store, model: model, options: options)
            .run(to: outputPath, format: .csv)
        print(summary.records)
        #expect(summary.records == 0)

        options.fields = ["colour"]
        let exporter = try Exporter(store: store, model: model, options: options)
        var reported = ""
        do {
            let outputPath = fixture.folder.file("never.csv").path
            // From ExportError's doc comment.
            do {
                _ = try exporter.run(to: outputPath, format: .csv)
            } catch let error as ExportError where error.code == .unknownField {
                print(error.message)
                reported = error.message
            }
        }
        #expect(reported.contains("'colour'"))
    }

    @Test func testMediaTypeExample() {
        let bytes = Data([0xFF, 0xD8, 0xFF, 0xE0, 0, 0x10]) + Data("JFIF".utf8)
        // From MediaType's doc comment.
        let type = MediaType.sniff(bytes)  // MediaType(fileExtension: "jpg", isCompressed: true)
        #expect(type == MediaType(fileExtension: "jpg", isCompressed: true))
        #expect(MediaType.sniff(Data("plain text".utf8)) == .unknown)
        #expect(
            MediaType.sniff(Data([0, 0, 0, 0x20]) + Data("ftypM4A ".utf8)).fileExtension == "m4a")
    }

    @Test func testBundleArticleAndTypeExamples() throws {
        let fixture = try BundleFixture()
        try fixture.store.close()
        let storeURL = fixture.store.url
        let bundleURL = fixture.folder.file("diary.zip")
        let schemasURL = BundleFixture.schemas
        let restoredURL = fixture.folder.file("Restored.sqlite")

        // From Bundles.md (and BundleArchiver's doc comment, without `summary`).
        let store = try Store.open(at: storeURL, mode: .readOnly)
        let model = try store.resolveModel(schemas: nil).requiredModel()
        try BundleArchiver(store: store, model: model).archive(to: bundleURL)

        var options = UnarchiveOptions()
        options.schemas = schemasURL  // migrate an older bundle to the newest version
        let summary = try BundleUnarchiver(bundle: bundleURL, options: options)
            .unarchive(to: restoredURL)
        print(summary.counts)
        #expect(summary.counts["DiaryEntry"] == 3)

        do {
            let restoredURL = fixture.folder.file("Second.sqlite")
            // From BundleUnarchiver's doc comment.
            var options = UnarchiveOptions()
            options.schemas = schemasURL
            let unarchiver = try BundleUnarchiver(bundle: bundleURL, options: options)
            let summary = try unarchiver.unarchive(to: restoredURL)
            #expect(summary.storeVersion == model.version)
        }
        do {
            // From UnarchiveOptions' doc comment.
            var options = UnarchiveOptions()
            options.schemas = schemasURL  // migrate to the newest
            options.merges = true  // into an existing store
            try BundleUnarchiver(bundle: bundleURL, options: options).unarchive(to: restoredURL)
        }
        let merged = try Store.open(at: restoredURL)
        #expect(try Context(store: merged, model: model).count("Tag") == 3)
        #expect(try Context(store: merged, model: model).count("DiaryEntry") == 6)
    }
}
