import Foundation
import Strata

// MARK: - The migration part of the demo

extension DemoCommand {
    /// The sample entries file: version-1 diary entries with media files.
    struct DiarySamples: Decodable {
        struct Entry: Decodable {
            var creationTime: Date
            var text: String?
            var media: [Medium]
        }
        struct Medium: Decodable {
            var type: String
            var file: String
        }
        var entries: [Entry]

        /// Reads the file's JSON with Strata's JSON reader and decodes it.
        ///
        /// - Throws: ``JSONSyntaxError``, or a `DecodingError` naming the
        ///   member that is missing or of the wrong kind and its line.
        init(json data: Data) throws {
            self = try JSONReader.parse(data).decode()
        }
    }

    /// Builds a version-1 diary store from `Samples/Diary`, prints the plan
    /// to the newest version (a dry run), migrates it and prints the entries
    /// as they are now.
    func runDiaryMigration() throws {
        let samples = "\(self.samples)/Diary"
        let chainURL = URL(fileURLWithPath: "\(schemas)/Diary")
        let chain = try SchemaChain.load(directory: chainURL)
        guard let first = chain.model(version: 1), chain.versions.count > 1 else { return }
        let path = "\(directory)/Diary-v1-migrated.sqlite"
        let url = URL(fileURLWithPath: path)

        let entriesFile = "\(samples)/entries-v1.json"
        let diary: DiarySamples
        do {
            diary = try DiarySamples(json: Data(contentsOf: URL(fileURLWithPath: entriesFile)))
        } catch DecodingError.typeMismatch(_, let context),
            DecodingError.keyNotFound(_, let context),
            DecodingError.valueNotFound(_, let context),
            DecodingError.dataCorrupted(let context)
        {
            throw CommandFailure(
                message: "\(entriesFile): not a sample diary: \(context.debugDescription)")
        } catch {
            throw CommandFailure(message: "\(entriesFile): not a sample diary: \(error)")
        }
        let store = try Store.create(at: url, model: first)
        let context = try Context(store: store, model: first)
        var mediaCount = 0
        for sample in diary.entries {
            let entry = try context.insert("DiaryEntry")
            try entry.set("creationTime", sample.creationTime)
            try entry.set("text", sample.text)
            for medium in sample.media {
                let object = try context.insert("Medium")
                try object.set("type", medium.type)
                let file = "\(samples)/media/\(medium.file)"
                guard let bytes = FileManager.default.contents(atPath: file) else {
                    throw CommandFailure(message: "\(entriesFile): media file \(file) is missing")
                }
                try object.setValue(.data(bytes), forKey: "data")
                try object.setObject(entry, forKey: "diaryEntry")
                mediaCount += 1
            }
        }
        try context.save()
        try store.close()

        Terminal.output("")
        Terminal.output(
            "== Diary migration: \(path) written at version 1 "
                + "(\(diary.entries.count) entries, \(mediaCount) media from \(samples))")
        var options = MigrationOptions()
        options.reportsRowCounts = true
        let migrator = try Migrator(storeAt: url, schemas: chainURL, options: options)
        Terminal.output(MigrationText.render(try migrator.preview()))
        Terminal.output("")
        Terminal.output(MigrationText.render(try migrator.run()))
        try printEntries(of: url, chain: chain)
    }

    /// The migrated entries: title, subtitle, words, tags, media.
    private func printEntries(of url: URL, chain: SchemaChain) throws {
        let store = try Store.open(at: url)
        defer { try? store.close() }
        let model = try store.matchingVersion(in: chain)
        let context = try Context(store: store, model: model)
        var request = FetchRequest(entity: "DiaryEntry")
        request.sortDescriptors = [SortDescriptor("creationTime")]
        var rows = [["TITLE", "SUBTITLE", "WORDS", "TAGS", "MEDIA"]]
        for entry in try context.fetch(request) {
            let tags = try entry.objects(forKey: "tags").compactMap { try $0.string("name") }
            rows.append([
                try entry.string("title") ?? "", try entry.string("subtitle") ?? "",
                try entry.integer("wordCount").map(String.init) ?? "",
                tags.sorted().joined(separator: " "),
                String(try entry.objects(forKey: "media").count),
            ])
        }
        Terminal.output("Entries at version \(model.version):")
        Terminal.output(TextTable.render(rows, indent: "  "))
        Terminal.output(
            "Integrity  \(try store.connection.integrityCheck().joined(separator: "; "))")
    }
}
