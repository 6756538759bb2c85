import Foundation
import Strata

/// Inserting the corpus's contacts into a fresh `Contacts` store: a Strata
/// worker against the `sqlite3` shell's `.import` of the same rows.
///
/// Both stores are created by Strata, identically, before each timed run.
/// The peer imports a CSV of ready-made `ZCONTACT` rows (prepared once,
/// untimed) in one statement run, then sets `Z_PRIMARYKEY.Z_MAX` as Core Data
/// would (timed), so both runs leave equivalent stores. After every run each
/// store must hold all rows and pass `PRAGMA integrity_check`; after the first
/// round the two stores must hold the same rows.
struct ContactInsertBenchmark: Benchmark {
    let name: String
    let summary: String
    let defaultRows = 1_000_000
    /// The worker the Strata side runs (see ``Worker``).
    let worker: String
    /// The Strata side's title in the table.
    let strataTitle: String
    /// Objects per save (transaction) on the Strata side.
    let batch = 10_000

    func plan(in environment: BenchEnvironment) throws -> BenchPlan {
        let schemas = environment.packageRoot.appendingPathComponent("Schemas/Contacts")
        let model = try ContactStore.model(in: schemas)
        let rows = environment.corpus.rows
        let strataStore = try ContactStore(
            url: environment.workspace.appendingPathComponent("strata.sqlite"), model: model)
        let peerStore = try ContactStore(
            url: environment.workspace.appendingPathComponent("peer.sqlite"), model: model)

        let sqlite3 = try ChildCommand.locate("sqlite3", hint: "install it with `make deps`")
        let csv = try ContactCSV.prepare(
            for: environment.corpus, entity: strataStore.contact.number)
        guard !csv.path.contains("\"") else {
            throw BenchError(.setup, "the corpus path may not contain a double quote")
        }
        let table = peerStore.contact.tableName
        let peerArguments = [
            "-bail", peerStore.url.path,
            ".import --csv --skip 1 \"\(csv.path)\" \(table)",
            "UPDATE Z_PRIMARYKEY SET Z_MAX = (SELECT ifnull(max(Z_PK), 0) FROM \(table)) "
                + "WHERE Z_ENT = \(peerStore.contact.number)",
        ]
        let strataArguments = [
            "--worker", worker, "--store", strataStore.url.path,
            "--input", environment.corpus.contactsText.path, "--schemas", schemas.path,
            "--batch", String(batch),
        ]

        let strata = Contender(
            title: strataTitle,
            prepareRun: {
                try strataStore.recreate()
                return ChildCommand(executable: environment.executable, arguments: strataArguments)
            },
            verify: { try strataStore.verify(rows: rows) })
        let peer = Contender(
            title: "sqlite3 .import --csv + Z_MAX",
            prepareRun: {
                try peerStore.recreate()
                return ChildCommand(executable: sqlite3, arguments: peerArguments)
            },
            verify: { try peerStore.verify(rows: rows) })
        return BenchPlan(
            strata: strata, peer: peer,
            compare: { try strataStore.verifySameContacts(as: peerStore) })
    }
}
