import Foundation
import Strata

/// A one-shot command on a small store, whole process: what scripts and
/// fleets run thousands of times (`find … -exec strata info`). `strata query
/// Notes.sqlite Note --count` against the `sqlite3` shell counting the table,
/// and `strata info` against the shell reading what `info` shows (the
/// bookkeeping, the count and the integrity check). The store holds the four
/// notes of `Samples/Notes`' size, built once, untimed.
///
/// Issue 32's target is absolute: Strata's median at most 8 ms.
struct StartupBenchmark: Benchmark {
    /// Which command is timed.
    enum Kind: String, Sendable, CaseIterable {
        /// `strata query STORE Note --count`.
        case query
        /// `strata info STORE`.
        case info
    }

    let kind: Kind
    var name: String { "startup-\(kind.rawValue)" }
    var summary: String {
        switch kind {
        case .query: "strata query --count on a 4-note store vs sqlite3 count(*), whole process"
        case .info: "strata info on a 4-note store vs sqlite3 reading the same, whole process"
        }
    }
    let defaultRows = 1_000

    func plan(in environment: BenchEnvironment) throws -> BenchPlan {
        let strata = try StrataProgram.locate(besides: environment.executable)
        let sqlite3 = try ChildCommand.locate("sqlite3", hint: "install it with `make deps`")
        let store = environment.workspace.appendingPathComponent("Notes.sqlite")
        try Self.makeStore(
            at: store, schemas: environment.packageRoot.appendingPathComponent("Schemas/Notes"))
        let (arguments, peerSQL) =
            switch kind {
            case .query:
                (["query", store.path, "Note", "--count"], "SELECT count(*) FROM ZNOTE")
            case .info:
                (
                    ["info", store.path],
                    "SELECT Z_UUID, length(Z_PLIST) FROM Z_METADATA; "
                        + "SELECT Z_ENT, Z_NAME, Z_MAX FROM Z_PRIMARYKEY; "
                        + "SELECT count(*) FROM ZNOTE; PRAGMA integrity_check"
                )
            }
        let strataSide = Contender(
            title: "strata " + arguments.filter { $0 != store.path }.joined(separator: " "),
            prepareRun: { ChildCommand(executable: strata, arguments: arguments) },
            verify: {})
        let peer = Contender(
            title: "sqlite3 shell",
            prepareRun: {
                ChildCommand(executable: sqlite3, arguments: ["-bail", store.path, peerSQL])
            },
            verify: {})
        return BenchPlan(
            strata: strataSide, peer: peer, compare: {},
            targets: [BenchTarget(figure: .seconds(of: 0), limit: 0.008)])
    }

    /// A version-1 notes store holding four notes, made afresh.
    static func makeStore(at url: URL, schemas: URL) throws {
        for suffix in ["", "-wal", "-shm"] {
            try? FileManager.default.removeItem(atPath: url.path + suffix)
        }
        let model = try SchemaChain.load(directory: schemas).newest
        let store = try Store.create(at: url, model: model) { fresh in
            let context = try Context(store: fresh, model: model)
            for title in ["Groceries", "Paris", "Ideas", "Reading list"] {
                try context.insert("Note").set("title", title)
            }
            try context.save()
        }
        try store.close()
    }
}
