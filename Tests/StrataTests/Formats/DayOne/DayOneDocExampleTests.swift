import Foundation
import Testing

@testable import Strata
@testable import StrataCore
@testable import StrataFormats
@testable import StrataStore

/// The code examples of the Day One documentation (the DayOne article,
/// ``DayOneImporter``, ``DayOneExporter``, ``DayOneImportOptions``,
/// ``DayOneProblem`` and ``MD5``), compiled and run as written.
struct DayOneDocExampleTests {
    @Test func testDayOneArticleExample() throws {
        let fixture = try DayOneFixture()
        let storeURL = fixture.storeURL
        let exportURL = try fixture.export()
        let outURL = fixture.folder.file("out.zip")

        // From DayOne.md.
        let store = try Store.open(at: storeURL)
        let model = try store.resolveModel(schemas: nil).requiredModel()
        var options = DayOneImportOptions()
        options.errorPolicy = .skip
        let summary = try DayOneImporter(store: store, model: model, options: options)
            .run(exportURL)
        for problem in summary.problems {
            print(problem)  // entry 0123…: the photo AAAA… is not in the zip
        }
        try DayOneExporter(store: store, model: model).export(to: outURL)

        #expect(summary.imported == 3)
        #expect(FileManager.default.fileExists(atPath: outURL.path))
        try store.close()
    }

    @Test func testDocCommentExamples() throws {
        let fixture = try DayOneFixture()
        let storeURL = fixture.storeURL
        let exportURL = try fixture.export()
        let outputURL = fixture.folder.file("out.zip")
        do {
            // From DayOneImporter's doc comment.
            let store = try Store.open(at: storeURL)
            let model = try store.resolveModel(schemas: nil).requiredModel()
            let summary = try DayOneImporter(store: store, model: model)
                .run(exportURL)
            print(summary.imported, summary.problems.count)
            #expect(summary.imported == 3)

            // From DayOneProblem's doc comment.
            for problem in summary.problems {
                print(problem.uuid ?? problem.file ?? "", problem.message)
            }
            try store.close()
        }
        do {
            // From DayOneExporter's doc comment.
            let store = try Store.open(at: storeURL, mode: .readOnly)
            let model = try store.resolveModel(schemas: nil).requiredModel()
            let summary = try DayOneExporter(store: store, model: model)
                .export(to: outputURL)
            print(summary.entries, summary.mediaFiles)
            #expect(summary.entries == 3 && summary.mediaFiles == 5)
            try store.close()
        }
        do {
            // From DayOneImportOptions' doc comment.
            var options = DayOneImportOptions()
            options.errorPolicy = .abort  // the first problem stops it; nothing written
            #expect(options.errorPolicy == .abort)
        }
        do {
            // From MD5's doc comment.
            var hasher = MD5()
            hasher.update(Array("abc".utf8))
            let name = MD5.hex(hasher.finalize())  // 900150983cd24fb0d6963f7d28e17f72
            #expect(name == "900150983cd24fb0d6963f7d28e17f72")
        }
    }
}
