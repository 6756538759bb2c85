import Foundation
import Strata

/// Importing `diary.txt` (blocks of `Date:`, `Title:`, `Tags:` headers and
/// a body) with `strata import --format txt-blocks` into a fresh `Diary`
/// store, against Strata's own import of `contacts.csv` in the same run:
/// the figure is the rate per byte, the diary's within 1.2x of the
/// CSV's. Two more peers show what that figure can be: the `sqlite3` shell
/// loading the very rows Strata writes (``DiaryRows``: same tables, same
/// indexes, from CSV), the floor of SQLite's own work and a second target
/// (at most 1.0x its time), and the shell's `.import` of `contacts.csv`, so
/// the table shows the shell's own per-byte rates for the two inputs side by
/// side (the diary's rows cost SQLite more per byte: each entry is a row, an
/// index entry and about two join rows with two index entries each).
///
/// The corpus has N / 10 diary entries (100,000 at the default 1,000,000
/// rows). `Date` finds `creationTime` through its `importKeys`, `Title` and
/// the body find `title` and `body` by name, and `Tags` (`a, b`) the to-many
/// `tags`, a `Tag` found or created by name. After every run the store holds
/// every entry with its title and body, the first one dated 2010-01-01
/// (the generator's start), one `Tag` per distinct name and one link per
/// distinct tag of an entry (all counted from the file, untimed), and passes
/// `PRAGMA integrity_check`; the CSV side is checked as in `import-csv`.
struct ImportDiaryBenchmark: Benchmark {
    let name = "import-diary"
    let summary = "strata import diary.txt (txt blocks) per byte vs its contacts.csv import"
    let defaultRows = 1_000_000

    /// The diary entries generated for a run of `rows` contacts.
    static func entries(forRows rows: Int) -> Int { max(rows / 10, 1) }

    /// 2010-01-01T00:00:00Z, the first entry's date, in Core Data's seconds
    /// since 2001-01-01.
    static let firstDate = 283_996_800

    func plan(in environment: BenchEnvironment) throws -> BenchPlan {
        let corpus = try Corpus.prepare(
            entries: Self.entries(forRows: environment.corpus.rows),
            generator: environment.generator, cache: environment.cache)
        let file = corpus.diaryText
        let census = try InputCensus.diary(file)
        let store = try ImportStore(
            url: environment.workspace.appendingPathComponent("strata.sqlite"),
            schemas: environment.packageRoot.appendingPathComponent(
                "Schemas/Diary", isDirectory: true))
        let entry = try store.entity("DiaryEntry")
        let created = try store.column("creationTime", of: "DiaryEntry")
        let title = try store.column("title", of: "DiaryEntry")
        let body = try store.column("body", of: "DiaryEntry")
        guard let links = try store.entity("DiaryEntry").joinTables["tags"] else {
            throw BenchError(.setup, "DiaryEntry.tags has no join table")
        }
        let strata = try StrataProgram.locate(besides: environment.executable)
        let sqlite3 = try ChildCommand.locate("sqlite3", hint: "install it with `make deps`")
        let rows = try DiaryRows.prepare(
            diary: file, tables: [try store.entity("Tag").tableName, entry.tableName, links],
            schemas: store.schemas, strata: strata, sqlite3: sqlite3)
        let shellStore = environment.workspace.appendingPathComponent("shell.sqlite")
        let shellRows = Contender(
            title: "sqlite3 .import the same rows",
            prepareRun: {
                try ImportStore.removeDatabase(at: shellStore)
                return ChildCommand(
                    executable: sqlite3, arguments: rows.shellArguments(database: shellStore.path))
            },
            verify: {
                let connection = try Connection(path: shellStore.path, mode: .readOnly)
                defer { try? connection.close() }  // Read-only; nothing to lose on close.
                for (table, expected) in [
                    (entry.tableName, census.entries), (links, census.links),
                ] {
                    let count = try connection.scalar("SELECT count(*) FROM \(table)")?.int64Value
                    guard count == Int64(expected) else {
                        throw BenchError(
                            .verification,
                            "the shell's \(table) holds \(count ?? -1) rows, expected \(expected)")
                    }
                }
            }, inputBytes: Corpus.size(of: file))
        let shellContacts = PlainTable(
            url: environment.workspace.appendingPathComponent("contacts-shell.db"))
        let contactsFile = environment.corpus.contactsCSV
        let contactRows = environment.corpus.rows
        let shellCSV = Contender(
            title: "sqlite3 .import contacts.csv",
            prepareRun: {
                try shellContacts.remove()
                return ChildCommand(
                    executable: sqlite3,
                    arguments: [
                        "-bail", shellContacts.url.path,
                        ".import --csv \"\(contactsFile.path)\" \(shellContacts.table)",
                    ])
            },
            verify: { try shellContacts.verify(rows: contactRows) },
            inputBytes: Corpus.size(of: contactsFile))
        let csv = try ContactImport(
            corpus: environment.corpus, input: .csv,
            store: environment.workspace.appendingPathComponent("csv.sqlite"),
            environment: environment)

        let diary = Contender(
            title: "strata import diary.txt",
            prepareRun: {
                try store.recreate()
                return ChildCommand(
                    executable: strata,
                    arguments: [
                        "import", store.url.path, file.path, "--format", "txt-blocks", "--entity",
                        "DiaryEntry", "--schemas", store.schemas.path,
                    ])
            },
            verify: {
                try store.verify(counts: ["DiaryEntry": census.entries, "Tag": census.tags]) {
                    connection in
                    for column in [title, body] {
                        try store.expect(
                            connection, "SELECT count(\(column)) FROM \(entry.tableName)",
                            equals: census.entries, "non-null \(column)")
                    }
                    try store.expect(
                        connection, "SELECT min(\(created)) FROM \(entry.tableName)",
                        equals: Self.firstDate, "as the first creationTime")
                    try store.expect(
                        connection, "SELECT count(*) FROM \(links)", equals: census.links,
                        "entry-tag links")
                }
            }, inputBytes: Corpus.size(of: file))
        log(
            "\(name): \(census.entries) entries, \(census.tags) tags, \(census.links) links; "
                + "\(environment.corpus.rows) contacts")
        return BenchPlan(
            strata: diary, peers: [csv.contender(side: "CSV"), shellRows, shellCSV], compare: {},
            targets: [
                BenchTarget(figure: .timePerByte(against: 1), limit: 1.2),
                BenchTarget(figure: .time(against: 2), limit: 1.0),
            ])
    }
}
