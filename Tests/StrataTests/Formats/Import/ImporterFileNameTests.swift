import Foundation
import Testing

@testable import Strata
@testable import StrataFormats
@testable import StrataSchema
@testable import StrataStore

/// Issue 28, point 8: a txt-files import can record each record's file
/// name (``ImportOptions/fileNameInto``, a mapping file's `"fileNameInto"`);
/// other formats refuse it.
struct ImporterFileNameTests {
    let folder: TemporaryDirectory
    let model: Model
    let storeURL: URL

    init() throws {
        folder = try TemporaryDirectory()
        model = try SchemaChain.load(
            directory: ContextFixture.schemas.appendingPathComponent("Diary")
        ).newest
        storeURL = folder.file("Diary.sqlite")
        try Store.create(at: storeURL, model: model).close()
    }

    /// A folder `notes` of two notes.
    private func notes() throws -> URL {
        let notes = folder.file("notes")
        try FileManager.default.createDirectory(at: notes, withIntermediateDirectories: false)
        try Data("Market\n\nApples.\n".utf8).write(
            to: notes.appendingPathComponent("2024-05-01 Market.txt"))
        try Data("Walk\n".utf8).write(to: notes.appendingPathComponent("2024-05-02 Walk.txt"))
        return notes
    }

    private func subtitles() throws -> [String?] {
        let store = try Store.open(at: storeURL, mode: .readOnly)
        defer { try? store.close() }
        let context = try Context(store: store, model: model)
        var request = FetchRequest(entity: "DiaryEntry")
        request.sortDescriptors = [SortDescriptor("title")]
        return try context.fetch(request).map { try $0.string("subtitle") }
    }

    @Test("txt-files import can record each record's file name into an attribute")
    func testFileNameIntoWritesEachFilesName() throws {
        let notes = try notes()
        var options = ImportOptions(entity: "DiaryEntry")
        options.format = .txtFiles
        options.fieldMap["modified"] = ""
        options.fileNameInto = "subtitle"
        let store = try Store.open(at: storeURL)
        let summary = try Importer.import(notes, into: store, model: model, options: options)
        try store.close()
        #expect(summary.records == 2)
        #expect(try subtitles() == ["2024-05-01 Market.txt", "2024-05-02 Walk.txt"])
    }

    @Test func testTheMappingFileKeyFileNameIntoSetsTheOption() throws {
        var options = ImportOptions()
        try ImportMappingFile.apply(
            data: Data(#"{"format": "strata-import/1", "fileNameInto": "subtitle"}"#.utf8),
            file: "map.json", to: &options)
        #expect(options.fileNameInto == "subtitle")
        // The command line wins.
        var given = ImportOptions()
        given.fileNameInto = "title"
        try ImportMappingFile.apply(
            data: Data(#"{"format": "strata-import/1", "fileNameInto": "subtitle"}"#.utf8),
            file: "map.json", to: &given)
        #expect(given.fileNameInto == "title")
        #expect(throws: ImportError.self) {
            var other = ImportOptions()
            try ImportMappingFile.apply(
                data: Data(#"{"format": "strata-import/1", "fileNameInto": 3}"#.utf8),
                file: "map.json", to: &other)
        }
    }

    @Test func testAnotherFormatRefusesFileNameInto() throws {
        let csv = folder.file("entries.csv")
        try Data("title\nMarket\n".utf8).write(to: csv)
        var options = ImportOptions(entity: "DiaryEntry")
        options.fileNameInto = "subtitle"
        let store = try Store.open(at: storeURL)
        defer { try? store.close() }
        let error = try #require(throws: ImportError.self) {
            try Importer.import(csv, into: store, model: model, options: options)
        }
        #expect(error.code == .structure)
        #expect(error.position.file == csv.relativePath)
        #expect(error.message.contains("only for txt-files") && error.message.contains("csv"))
        #expect(try subtitles() == [])
    }
}
