import Foundation

/// The benchmark input, made by the shared deterministic generator
/// (`gen.py`) and cached under `Benchmarks/corpus/` (ignored by git).
///
/// Each size is generated once into its own folder through a temporary
/// folder renamed into place when complete, so an interrupted generation is
/// never mistaken for a corpus: `contacts-<rows>/` holds the contacts only
/// (the runner's corpus), `entries-<count>/` the diary entries, notes and
/// recipes only (the import benchmarks' other inputs).
struct Corpus {
    /// The folder holding this corpus's files.
    let directory: URL
    /// The number of contacts.
    let rows: Int
    /// The number of diary entries (`gen.py --entries`; recipes are the
    /// first 20,000 of as many).
    var entries = 0

    /// `contacts.txt`: one contact a line, fields separated by `;`.
    var contactsText: URL { directory.appendingPathComponent("contacts.txt") }
    /// `contacts.csv`: the same contacts, RFC 4180 with a header line.
    var contactsCSV: URL { directory.appendingPathComponent("contacts.csv") }
    /// `diary.txt`: entries as blocks of `Key: Value` headers and a body.
    var diaryText: URL { directory.appendingPathComponent("diary.txt") }
    /// `recipes.plist`: an XML property list of recipes with ingredients.
    var recipesPlist: URL { directory.appendingPathComponent("recipes.plist") }

    /// `media/`: the generated photo and sound files.
    var mediaFolder: URL { directory.appendingPathComponent("media", isDirectory: true) }
    /// `diary-media.csv`: which entry (0-based) each media file belongs to.
    var diaryMedia: URL { directory.appendingPathComponent("diary-media.csv") }

    /// Returns the corpus of `entries` diary entries with `media` media
    /// files (no contacts), generating it first if needed.
    ///
    /// - Throws: ``BenchError`` (`setup`), as ``prepare(rows:generator:cache:)``.
    static func prepare(entries: Int, media: Int, generator: URL, cache: URL) throws -> Corpus {
        let corpus = Corpus(
            directory: cache.appendingPathComponent(
                "diary-\(entries)-\(media)", isDirectory: true),
            rows: 0, entries: entries)
        try generate(
            corpus, complete: corpus.diaryMedia,
            what: "\(entries) diary entries with \(media) media files",
            arguments: ["--rows", "0", "--entries", String(entries), "--media", String(media)],
            generator: generator, cache: cache)
        return corpus
    }

    /// The size of `file` in bytes (0 when it cannot be read).
    static func size(of file: URL) -> Int {
        let attributes = try? FileManager.default.attributesOfItem(atPath: file.path)
        return (attributes?[.size] as? NSNumber)?.intValue ?? 0
    }

    /// Returns the corpus of `rows` contacts, generating it first if needed.
    ///
    /// - Parameters:
    ///   - rows: How many contacts.
    ///   - generator: The path of `gen.py`.
    ///   - cache: The folder holding generated corpora.
    /// - Throws: ``BenchError`` (`setup`) when the generator or `python3` is
    ///   missing or fails.
    static func prepare(rows: Int, generator: URL, cache: URL) throws -> Corpus {
        let corpus = Corpus(
            directory: cache.appendingPathComponent("contacts-\(rows)", isDirectory: true),
            rows: rows)
        // Only the contacts are needed here; the other files are made empty.
        try generate(
            corpus, complete: corpus.contactsText, what: "\(rows) contacts",
            arguments: ["--rows", String(rows), "--entries", "0", "--media", "0"],
            generator: generator, cache: cache)
        return corpus
    }

    /// Returns the corpus of `entries` diary entries (and as many recipes,
    /// up to 20,000, and notes, up to 2,000), without contacts or media,
    /// generating it first if needed.
    ///
    /// - Throws: ``BenchError`` (`setup`), as ``prepare(rows:generator:cache:)``.
    static func prepare(entries: Int, generator: URL, cache: URL) throws -> Corpus {
        let corpus = Corpus(
            directory: cache.appendingPathComponent("entries-\(entries)", isDirectory: true),
            rows: 0, entries: entries)
        try generate(
            corpus, complete: corpus.recipesPlist, what: "\(entries) diary entries and recipes",
            arguments: ["--rows", "0", "--entries", String(entries), "--media", "0"],
            generator: generator, cache: cache)
        return corpus
    }

    /// Runs the generator into `corpus.directory` unless `complete` exists.
    private static func generate(
        _ corpus: Corpus, complete: URL, what: String, arguments: [String], generator: URL,
        cache: URL
    ) throws {
        let fileManager = FileManager.default
        if fileManager.fileExists(atPath: complete.path) { return }
        guard fileManager.fileExists(atPath: generator.path) else {
            throw BenchError(
                .setup,
                "corpus generator not found at \(generator.relativePath); pass --gen PATH "
                    + "to the shared bench/gen.py")
        }
        let python = try ChildCommand.locate("python3", hint: "the corpus generator needs it")
        try fileManager.createDirectory(at: cache, withIntermediateDirectories: true)
        let partial = cache.appendingPathComponent(
            ".\(corpus.directory.lastPathComponent).\(ProcessInfo.processInfo.processIdentifier)"
                + ".partial")
        try? fileManager.removeItem(at: partial)  // A leftover of this same pid, if any.
        log("generating \(what) with \(generator.lastPathComponent)…")
        _ = try ChildProcess.run(
            ChildCommand(executable: python, arguments: [generator.path, partial.path] + arguments))
        do {
            try fileManager.moveItem(at: partial, to: corpus.directory)
        } catch {
            try? fileManager.removeItem(at: partial)  // Another run won the race; use its copy.
            guard fileManager.fileExists(atPath: complete.path) else { throw error }
        }
    }
}

/// Prints a progress line on standard error.
func log(_ message: String) {
    FileHandle.standardError.write(Data((message + "\n").utf8))
}
