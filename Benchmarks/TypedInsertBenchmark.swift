import Foundation
import Strata

/// Inserting the corpus's contacts through the generated `Contact` class
/// against the untyped context insert of the same rows (issue 14: typed
/// code within 5 % of the untyped one). Both sides are Strata workers on
/// identical fresh stores; after the first round both stores must hold the
/// same rows.
struct TypedInsertBenchmark: Benchmark {
    let name = "typed-insert"
    let summary = "contacts through generated classes vs the untyped context (issue 14)"
    let defaultRows = 1_000_000
    /// Objects per save on both sides.
    let batch = 10_000

    func plan(in environment: BenchEnvironment) throws -> BenchPlan {
        let schemas = environment.packageRoot.appendingPathComponent("Schemas/Contacts")
        let model = try ContactStore.model(in: schemas)
        let rows = environment.corpus.rows
        let typedStore = try ContactStore(
            url: environment.workspace.appendingPathComponent("typed.sqlite"), model: model)
        let untypedStore = try ContactStore(
            url: environment.workspace.appendingPathComponent("untyped.sqlite"), model: model)
        func arguments(_ worker: String, _ store: ContactStore) -> [String] {
            [
                "--worker", worker, "--store", store.url.path,
                "--input", environment.corpus.contactsText.path, "--schemas", schemas.path,
                "--batch", String(batch),
            ]
        }
        let typed = Contender(
            title: "Contact(context:), save/10000",
            prepareRun: {
                try typedStore.recreate()
                return ChildCommand(
                    executable: environment.executable,
                    arguments: arguments("typed-insert", typedStore))
            },
            verify: { try typedStore.verify(rows: rows) }, side: "typed")
        let untyped = Contender(
            title: "context.insert(\"Contact\"), save/10000",
            prepareRun: {
                try untypedStore.recreate()
                return ChildCommand(
                    executable: environment.executable,
                    arguments: arguments("context-insert", untypedStore))
            },
            verify: { try untypedStore.verify(rows: rows) }, side: "untyped")
        return BenchPlan(
            strata: typed, peer: untyped,
            compare: { try typedStore.verifySameContacts(as: untypedStore) },
            targets: [BenchTarget(figure: .time(against: 1), limit: 1.05)])
    }
}
