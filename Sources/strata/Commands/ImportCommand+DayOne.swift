import Foundation
import Strata

extension ImportCommand {
    /// `--format dayone`: imports a Day One JSON export zip into the
    /// store (created at the newest version when absent and --schemas is
    /// given); problems go to stderr, one line each, the summary to stdout.
    func importDayOne() throws {
        var dayOneOptions = DayOneImportOptions()
        dayOneOptions.errorPolicy = errorPolicy ?? .skip
        dayOneOptions.isDryRun = options.isDryRun
        dayOneOptions.jsonLimits = options.limits
        let storeURL = URL(fileURLWithPath: store)
        let inputURL = URL(fileURLWithPath: input)
        var summary = DayOneImportSummary()
        if FileManager.default.fileExists(atPath: store) {
            let opened = try Store.open(
                at: storeURL, mode: options.isDryRun ? .readOnly : .readWrite)
            defer { try? opened.close() }  // The import merged in one transaction, or not at all.
            let model = try StoreModelSource.model(of: opened, schemas: schemas)
            summary = try DayOneImporter(store: opened, model: model, options: dayOneOptions)
                .run(inputURL)
        } else {
            guard let schemas else {
                throw CommandFailure(
                    message: "\(store): no such store; give --schemas to create it")
            }
            let model = try SchemaSource.loadChain(schemas).newest
            var target = storeURL
            var scratch: URL?
            if options.isDryRun {
                let folder = try WorkFiles.makeFolder(for: storeURL, activity: "checking")
                scratch = folder
                target = folder.appendingPathComponent(storeURL.lastPathComponent)
            }
            defer { if let scratch { WorkFiles.remove(scratch) } }
            let created = try Store.create(at: target, model: model) { fresh in
                summary = try DayOneImporter(store: fresh, model: model, options: dayOneOptions)
                    .run(inputURL)
            }
            try created.close()
        }
        for problem in summary.problems {
            Terminal.error("warning: \(input): \(problem)")
        }
        if json {
            Terminal.output(try JSONOutput.encode(summary))
            return
        }
        let verb = summary.isDryRun ? "Would import" : "Imported"
        var text =
            "\(verb) \(summary.imported) of \(summary.entries) Day One entries"
            + (summary.updated > 0 ? " (\(summary.updated) updated)" : "")
            + ", \(summary.media) media (\(summary.mediaBytes) bytes), \(summary.tags) tags "
            + "from \(input) into \(store)"
        if !summary.problems.isEmpty {
            text += "; \(summary.problems.count) problem(s) reported"
            if summary.skipped > 0 { text += ", \(summary.skipped) entries skipped" }
        }
        Terminal.output(text)
    }
}
