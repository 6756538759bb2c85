import Foundation
import StrataCore
import StrataSchema
import StrataStore

extension Importer {
    /// Imports the records of `file` into `store` in one call, as
    /// `strata import` does: the format from ``ImportOptions/format`` or
    /// guessed from the name, the reader it needs, the rejects file, one
    /// summary.
    ///
    /// ```swift
    /// var options = ImportOptions(entity: "Contact")
    /// options.delimiter = UInt8(ascii: ";")
    /// options.columns = ["firstName", "lastName", "nickname", "email", "birthday", "score", "notes"]
    /// options.uniqueKey = ["email"]
    /// let summary = try Importer.import(contactsFile, into: store, options: options)
    /// print(summary.inserted, summary.updated)
    /// ```
    ///
    /// - Parameters:
    ///   - file: A file of records, or a folder of `.txt` files.
    ///   - store: The store to write.
    ///   - model: The store's model; nil for the one the store records (its
    ///     stored schema, else Core Data's model cache).
    ///   - options: How records are read, mapped, checked and written.
    ///   - progress: Called as records are read and batches commit.
    /// - Returns: What the import did.
    /// - Throws: ``ImportError`` with the file and place of a bad record
    ///   (under ``ImportOptions/ErrorPolicy/abort`` nothing is written),
    ///   when the format cannot be told, or when the store names no model.
    @discardableResult
    public static func `import`(
        _ file: URL, into store: Store, model: Model? = nil,
        options: ImportOptions = ImportOptions(), progress: ((ImportProgress) -> Void)? = nil
    ) throws -> ImportSummary {
        let path = file.relativePath
        guard let format = options.format ?? ImportFormat.guess(path: path) else {
            throw ImportError(
                .unreadable, at: SourcePosition(file: path),
                "cannot tell the format from the name; set ImportOptions.format")
        }
        let resolved = try model ?? store.resolveModel().model
        guard let model = resolved else {
            throw ImportError(
                .unreadable, at: SourcePosition(file: store.path),
                "the store records no model; pass the model to import into")
        }
        let rejects = try options.rejectsFile.map {
            try RejectsFile(
                path: $0.relativePath,
                companions: [.txtLines, .txtFiles].contains(format) ? [".reasons.txt"] : [],
                replacing: options.replacesRejects, store: store.path, input: path)
        }
        let source = try ImportReaders.open(
            path, format: format, reading: options.reading, limits: options.limits,
            fileNameInto: options.fileNameInto)
        let importer = try Importer(store: store, model: model, options: options)
        importer.progress = progress
        if let rejects, !options.isDryRun {
            rejects.makeWriter = { [reading = options.reading, name = rejects.path] rejectsPath in
                try ImportReaders.rejectWriter(
                    rejectsPath, format: format, source: source, reading: reading, name: name)
            }
            importer.rejects = rejects
        }
        do {
            let summary: ImportSummary
            switch source {
            case .fields(let reader): summary = try importer.run(reader)
            case .records(let reader): summary = try importer.run(reader)
            }
            if !options.isDryRun { try rejects?.finish() }
            return summary
        } catch {
            // Batches committed before the failure stay, so do their rejects;
            // the import's error is the one to report.
            if !options.isDryRun { try? rejects?.finish() }
            throw error
        }
    }
}
