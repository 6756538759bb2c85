import Foundation
import Strata

/// Importing the corpus's contacts: `strata import` into a fresh `Contacts`
/// store against the `sqlite3` shell's `.import` into a fresh, empty
/// database (a plain table of text columns) and, when installed,
/// `sqlite-utils insert --csv` likewise.
///
/// - `csv`: `contacts.csv` (header `first,last,nick,email,…`); the shell
///   creates its table from the header.
/// - `txt`: `contacts.txt` (`;`-separated, no header) as txt lines with the
///   fields named by `--columns`; the shell's table is created first, in
///   the same timed run, with the CSV header's column names.
///
/// After every run each side holds N rows and passes `PRAGMA
/// integrity_check`; after the first round Strata's contacts equal the
/// shell's rows field by field.
struct ImportCSVBenchmark: Benchmark {
    /// Which file is imported.
    enum Kind: String, Sendable { case csv, txt }

    let kind: Kind
    var name: String { "import-\(kind.rawValue)" }
    var summary: String {
        switch kind {
        case .csv: "strata import contacts.csv vs sqlite3 .import --csv, sqlite-utils (issue 10)"
        case .txt: "strata import contacts.txt (txt lines) vs sqlite3 .import, sqlite-utils"
        }
    }
    let defaultRows = 1_000_000

    func plan(in environment: BenchEnvironment) throws -> BenchPlan {
        let corpus = environment.corpus
        let strata = try ContactImport(
            corpus: corpus, input: kind == .csv ? .csv : .txtLines,
            store: environment.workspace.appendingPathComponent("strata.sqlite"),
            environment: environment)
        let file = strata.file
        guard !file.path.contains("\"") else {
            throw BenchError(.setup, "the corpus path may not contain a double quote")
        }
        let bytes = Corpus.size(of: file)
        let rows = corpus.rows

        let sqlite3 = try ChildCommand.locate("sqlite3", hint: "install it with `make deps`")
        let shellTable = PlainTable(url: environment.workspace.appendingPathComponent("peer.db"))
        let shellArguments =
            switch kind {
            case .csv:
                [
                    "-bail", shellTable.url.path,
                    ".import --csv \"\(file.path)\" \(shellTable.table)",
                ]
            case .txt:
                [
                    "-bail", shellTable.url.path,
                    "CREATE TABLE \(shellTable.table) (first TEXT, last TEXT, nick TEXT, "
                        + "email TEXT, birthday TEXT, score TEXT, notes TEXT)",
                    ".separator ;", ".import \"\(file.path)\" \(shellTable.table)",
                ]
            }
        var peers = [
            Contender(
                title: kind == .csv ? "sqlite3 .import --csv" : "sqlite3 .separator ; .import",
                prepareRun: {
                    try shellTable.remove()
                    return ChildCommand(executable: sqlite3, arguments: shellArguments)
                },
                verify: { try shellTable.verify(rows: rows) }, inputBytes: bytes)
        ]
        var targets = [BenchTarget(figure: .time(against: 1), limit: 1.0)]
        if kind == .csv {
            targets.append(BenchTarget(figure: .peakMegabytes(of: 0), limit: 64, inclusive: false))
        }

        if let utility = try? ChildCommand.locate("sqlite-utils", hint: "") {
            let utilityTable = PlainTable(
                url: environment.workspace.appendingPathComponent("peer2.db"))
            var arguments = [
                "insert", utilityTable.url.path, utilityTable.table, file.path, "--csv",
            ]
            if kind == .txt { arguments += ["--delimiter", ";", "--no-headers"] }
            peers.append(
                Contender(
                    title: kind == .csv ? "sqlite-utils insert --csv" : "sqlite-utils --csv ;",
                    prepareRun: {
                        try utilityTable.remove()
                        return ChildCommand(executable: utility, arguments: arguments)
                    },
                    verify: { try utilityTable.verify(rows: rows) }, inputBytes: bytes))
            targets.append(BenchTarget(figure: .time(against: 2), limit: 0.1))
        } else {
            log(
                "\(name): sqlite-utils is not installed; skipping that peer "
                    + "(install it for the benchmark with `pip install sqlite-utils`)")
        }
        return BenchPlan(
            strata: strata.contender(), peers: peers,
            compare: { try strata.verifySame(as: shellTable) }, targets: targets)
    }
}
