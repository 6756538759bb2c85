import Foundation
import Strata

// MARK: - The import part of the demo

extension DemoCommand {
    /// One sample input of a seed app and how it is read.
    struct SampleImport {
        var model: String
        var entity: String
        var input: String
        var format: ImportFormat
        var reading = ImportReadingOptions()
        var columns: [String]?
    }

    /// The bundled sample inputs: contacts as txt lines (the tutorial's
    /// case), the diary as txt blocks with photos named by path, notes as a
    /// folder of txt files, recipes as a plist with nested ingredients.
    var sampleImports: [SampleImport] {
        var contacts = SampleImport(
            model: "Contacts", entity: "Contact", input: "\(samples)/Contacts/contacts.txt",
            format: .txtLines,
            columns: ["firstName", "lastName", "nickname", "email", "birthday", "score", "notes"])
        contacts.reading.delimiter = UInt8(ascii: ";")
        return [
            contacts,
            SampleImport(
                model: "Diary", entity: "DiaryEntry", input: "\(samples)/Diary/diary.txt",
                format: .txtBlocks),
            SampleImport(
                model: "Notes", entity: "Note", input: "\(samples)/Notes/notes", format: .txtFiles),
            SampleImport(
                model: "Recipes", entity: "Recipe", input: "\(samples)/Recipes/recipes.plist",
                format: .plist),
        ]
    }

    /// Imports the sample of `model` into its freshly created store and
    /// prints what was inserted.
    func importSample(of model: String, into path: String) throws {
        guard let sample = sampleImports.first(where: { $0.model == model }) else { return }
        let store = try Store.open(at: URL(fileURLWithPath: path))
        defer { try? store.close() }  // The import committed; closing checkpoints.
        let chain = try SchemaChain.load(directory: URL(fileURLWithPath: "\(schemas)/\(model)"))
        let storeModel = try store.matchingVersion(in: chain)
        var options = ImportOptions(entity: sample.entity)
        options.columns = sample.columns
        let source = try ImportReaders.open(
            sample.input, format: sample.format, reading: sample.reading, limits: options.limits)
        let importer = try Importer(store: store, model: storeModel, options: options)
        let summary: ImportSummary
        switch source {
        case .fields(let reader): summary = try importer.run(reader)
        case .records(let reader): summary = try importer.run(reader)
        }
        let counts = summary.insertedByEntity.sorted { $0.key < $1.key }
            .map { "\($0.value) \($0.key)" }.joined(separator: ", ")
        Terminal.output(
            "Imported \(sample.input) (\(sample.format.rawValue)): \(summary.records) records; inserted \(counts)"
        )
    }
}
