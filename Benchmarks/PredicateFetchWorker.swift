import Foundation
import Strata

/// Runs a predicate-fetch plan through `Context.fetch`: each line of the
/// input is `equality SECONDS N`, `range LOW HIGH N` or `contains WORD N`,
/// and the fetch must return N objects (all materialised).
enum PredicateFetchWorker {
    static func run(_ options: Worker.Options) throws {
        let model = try SchemaChain.load(directory: options.schemas).newest
        let store = try Store.open(at: options.store, mode: .readOnly)
        try fetch(plan: options.input.path, store: store, model: model)
        try store.close()
    }

    /// Runs the plan; the context is released on return, so the store can
    /// close.
    private static func fetch(plan path: String, store: Store, model: Model) throws {
        let context = try Context(store: store, model: model)
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        for line in lines {
            let fields = line.split(separator: " ").map(String.init)
            guard fields.count >= 3, let expected = Int(fields[fields.count - 1]) else {
                throw BenchError(.input, "\(path): bad plan line `\(line)`")
            }
            var request = FetchRequest(entity: "Note")
            switch fields[0] {
            case "equality":
                request.predicate = try FetchPredicate(
                    "date == %@", arguments: [.value(.date(Double(fields[1]) ?? .nan))])
            case "range":
                request.predicate = try FetchPredicate(
                    "date BETWEEN %@",
                    arguments: [
                        .array([.date(Double(fields[1]) ?? .nan), .date(Double(fields[2]) ?? .nan)])
                    ])
            default:
                request.predicate = try FetchPredicate(
                    "body CONTAINS[cd] %@", arguments: [.string(fields[1])])
            }
            let found = try context.fetch(request)
            guard found.count == expected else {
                throw BenchError(
                    .verification, "`\(line)` fetched \(found.count) notes, expected \(expected)")
            }
        }
    }
}
