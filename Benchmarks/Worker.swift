import Foundation

/// The Strata side of a benchmark: code run in a child process
/// (`strata-bench --worker NAME …`) so that its time and memory are measured
/// alone.
struct Worker: Sendable {
    /// What a worker is given on its command line (the input of a
    /// predicate-fetch worker is its query plan).
    struct Options: Sendable {
        /// The store to write (`--store`).
        var store: URL
        /// The input file (`--input`).
        var input: URL
        /// The schema folder (`--schemas`).
        var schemas: URL
        /// Objects per save or transaction (`--batch`).
        var batch: Int
        /// Which variant of its work the worker does (`--variant`), for
        /// workers that have several; empty when not given.
        var variant: String = ""
    }

    /// The name after `--worker`.
    var name: String
    /// The work.
    var run: @Sendable (Options) throws -> Void

    /// Every worker, by name.
    static let all: [Worker] = [
        Worker(name: "sql-insert", run: SQLInsertWorker.run),
        Worker(name: "context-insert", run: ContextInsertWorker.run),
        Worker(name: "typed-insert", run: TypedInsertWorker.run),
        Worker(name: "predicate-fetch", run: PredicateFetchWorker.run),
        Worker(name: "migrate", run: MigrateWorker.run),
    ]

    /// Parses the arguments after `--worker NAME`.
    ///
    /// - Throws: ``BenchError`` (`usage`).
    static func parseOptions(_ arguments: [String]) throws -> Options {
        var values: [String: String] = [:]
        var index = 0
        while index < arguments.count {
            let flag = arguments[index]
            guard ["--store", "--input", "--schemas", "--batch", "--variant"].contains(flag),
                index + 1 < arguments.count
            else {
                throw BenchError(.usage, "worker: unexpected argument `\(flag)`")
            }
            values[flag] = arguments[index + 1]
            index += 2
        }
        guard let store = values["--store"], let input = values["--input"],
            let schemas = values["--schemas"]
        else {
            throw BenchError(.usage, "worker: --store, --input and --schemas are required")
        }
        guard let batch = Int(values["--batch"] ?? "10000"), batch > 0 else {
            throw BenchError(.usage, "worker: --batch takes a positive integer")
        }
        return Options(
            store: URL(fileURLWithPath: store), input: URL(fileURLWithPath: input),
            schemas: URL(fileURLWithPath: schemas, isDirectory: true), batch: batch,
            variant: values["--variant"] ?? "")
    }
}
