import Foundation

/// The benchmark input, made by the shared deterministic generator
/// (`gen.py`) and cached under `Benchmarks/corpus/` (ignored by git).
///
/// Each size is generated once into its own folder, `contacts-<rows>/`,
/// through a temporary folder renamed into place when complete, so an
/// interrupted generation is never mistaken for a corpus.
struct Corpus {
    /// The folder holding this corpus's files.
    let directory: URL
    /// The number of contacts.
    let rows: Int

    /// `contacts.txt`: one contact a line, fields separated by `;`.
    var contactsText: URL { directory.appendingPathComponent("contacts.txt") }

    /// Returns the corpus of `rows` contacts, generating it first if needed.
    ///
    /// - Parameters:
    ///   - rows: How many contacts.
    ///   - generator: The path of `gen.py`.
    ///   - cache: The folder holding generated corpora.
    /// - Throws: ``BenchError`` (`setup`) when the generator or `python3` is
    ///   missing or fails.
    static func prepare(rows: Int, generator: URL, cache: URL) throws -> Corpus {
        let fileManager = FileManager.default
        let directory = cache.appendingPathComponent("contacts-\(rows)", isDirectory: true)
        let corpus = Corpus(directory: directory, rows: rows)
        if fileManager.fileExists(atPath: corpus.contactsText.path) { return corpus }

        guard fileManager.fileExists(atPath: generator.path) else {
            throw BenchError(
                .setup,
                "corpus generator not found at \(generator.relativePath); pass --gen PATH "
                    + "to the shared bench/gen.py")
        }
        let python = try ChildCommand.locate("python3", hint: "the corpus generator needs it")
        try fileManager.createDirectory(at: cache, withIntermediateDirectories: true)
        let partial = cache.appendingPathComponent(
            ".contacts-\(rows).\(ProcessInfo.processInfo.processIdentifier).partial")
        try? fileManager.removeItem(at: partial)  // A leftover of this same pid, if any.
        log("generating \(rows) contacts with \(generator.lastPathComponent)…")
        // Only the contacts are needed here; the other files are made empty.
        _ = try ChildProcess.run(
            ChildCommand(
                executable: python,
                arguments: [
                    generator.path, partial.path, "--rows", String(rows), "--entries", "0",
                    "--media", "0",
                ]))
        do {
            try fileManager.moveItem(at: partial, to: directory)
        } catch {
            try? fileManager.removeItem(at: partial)  // Another run won the race; use its copy.
            guard fileManager.fileExists(atPath: corpus.contactsText.path) else { throw error }
        }
        return corpus
    }
}

/// Prints a progress line on standard error.
func log(_ message: String) {
    FileHandle.standardError.write(Data((message + "\n").utf8))
}
