import Foundation
import Strata

/// A `Notes` store of generated notes for the predicate-fetch benchmarks,
/// with the query plans both sides run, built once per size (untimed) and
/// cached beside the contacts corpus.
///
/// Note `n` (from 0) has `date` = (n / 100) hours after 2001-01-01, so each
/// date is shared by 100 notes and `date` is indexed (Schemas/Notes); its
/// `body` is twelve words drawn deterministically from a list in which about
/// a third of the bodies get a word with diacritics, and every thousandth
/// note mentions a "RiverBank" in some case. The ``Text/accented`` corpus
/// draws every word from the whole list instead, so nearly every body holds
/// several words with diacritics (about 3.7 of 12) and a search folds text
/// that is not ASCII on almost every row.
struct NoteCorpus {
    /// How much of the text is ASCII.
    enum Text: String, Sendable {
        /// A word with diacritics in about a third of the bodies.
        case mostlyASCII = ""
        /// Words with diacritics in nearly every body.
        case accented = "accented-"
    }

    /// The store.
    let store: URL
    /// The model folder (Schemas/Notes).
    let schemas: URL
    let rows: Int

    static let words = [
        "walk", "rain", "garden", "coffee", "letter", "train", "Morning", "evening", "market",
        "book", "window", "bridge", "Paper", "music", "friend", "harbour", "lamp", "tea",
        "Vögel", "Straße", "café", "naïve", "Ærø", "señor", "Über", "crème",
    ]
    static let asciiWords = 18

    /// Builds (or reuses) the store for `rows` notes.
    static func prepare(
        rows: Int, text: Text = .mostlyASCII, packageRoot: URL, cache: URL
    ) throws -> NoteCorpus {
        let schemas = packageRoot.appendingPathComponent("Schemas/Notes", isDirectory: true)
        let store = cache.appendingPathComponent("notes-\(text.rawValue)\(rows).sqlite")
        let corpus = NoteCorpus(store: store, schemas: schemas, rows: rows)
        if FileManager.default.fileExists(atPath: store.path) { return corpus }
        log("strata-bench: building \(store.lastPathComponent) (once)")
        let partial = cache.appendingPathComponent("notes-\(text.rawValue)\(rows).partial.sqlite")
        try? FileManager.default.removeItem(at: partial)  // A leftover of a killed build.
        try FileManager.default.createDirectory(at: cache, withIntermediateDirectories: true)
        let model = try SchemaChain.load(directory: schemas).newest
        let created = try Store.create(at: partial, model: model)
        try fill(created.connection, rows: rows, text: text)
        try created.close()
        try FileManager.default.moveItem(at: partial, to: store)
        return corpus
    }

    /// Inserts the notes in one transaction; the statement is finalized on
    /// return, so the store can close.
    private static func fill(_ connection: Connection, rows: Int, text: Text) throws {
        try connection.execute("BEGIN")
        let insert = try connection.prepare(
            "INSERT INTO ZNOTE (Z_PK, Z_ENT, Z_OPT, ZDATE, ZTITLE, ZBODY) VALUES (?, 1, 1, ?, ?, ?)"
        )
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        for n in 0..<rows {
            var words: [String] = []
            for slot in 0..<12 {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                let draw = Int(state >> 33)
                // Mostly ASCII words; a diacritic word in about a third of
                // bodies (accented: any word anywhere).
                let pool =
                    text == .accented || slot == 0 && draw % 3 == 0
                    ? Self.words.count : asciiWords
                words.append(Self.words[draw % pool])
            }
            if n % 1000 == 7 { words[5] = ["RiverBank", "riverbank", "RIVERBANK"][n / 1000 % 3] }
            try insert.bind(Int64(n + 1), at: 1)
            try insert.bind(Double(n / 100) * 3600, at: 2)
            try insert.bind("Note \(n)", at: 3)
            try insert.bind(words.joined(separator: " "), at: 4)
            try insert.execute()
        }
        try connection.execute("UPDATE Z_PRIMARYKEY SET Z_MAX = \(rows) WHERE Z_ENT = 1")
        try connection.execute("COMMIT")
    }

    /// The distinct dates.
    var dates: Int { (rows + 99) / 100 }
}
