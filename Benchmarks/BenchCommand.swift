import Foundation

/// The `strata-bench` command line: parsing, help and dispatch.
///
/// ```
/// strata-bench [NAME…] [--rows N] [--runs K] [--gen PATH]
/// strata-bench --help
/// ```
/// With no name every benchmark runs. `--worker NAME …` is the hidden entry
/// of the Strata side's child process.
enum BenchCommand {
    /// Every benchmark, in the order `make bench` runs them.
    static let benchmarks: [any Benchmark] =
        [
            ContactInsertBenchmark(
                name: "sql-insert",
                summary: "contacts through one prepared INSERT (Connection) vs sqlite3 .import",
                worker: "sql-insert", strataTitle: "Connection INSERT, commit/10000"),
            ContactInsertBenchmark(
                name: "context-insert",
                summary: "contacts through the object context vs sqlite3 .import (issue 3)",
                worker: "context-insert", strataTitle: "Context insert, save/10000"),
            TypedInsertBenchmark(),
            PredicateFetchBenchmark(kind: .equality),
            PredicateFetchBenchmark(kind: .range),
            PredicateFetchBenchmark(kind: .contains),
            PredicateFetchBenchmark(kind: .containsAccented),
        ] + MigrateBenchmark.Kind.allCases.map { MigrateBenchmark(kind: $0) } + [
            LongChainBenchmark(),
            ImportCSVBenchmark(kind: .csv),
            ImportCSVBenchmark(kind: .txt),
            ImportPlistBenchmark(),
            ImportDiaryBenchmark(),
            ImportScaleBenchmark(),
        ] + ImportVariantBenchmark.Kind.allCases.map { ImportVariantBenchmark(kind: $0) } + [
            ExportCSVBenchmark(),
            BundleBenchmark(kind: .archive),
            BundleBenchmark(kind: .unarchive),
        ] + StartupBenchmark.Kind.allCases.map { StartupBenchmark(kind: $0) }

    /// Whether `name` on the command line selects `benchmark`: its name, or
    /// the name of its family (`predicate-fetch` for `predicate-fetch-range`)
    /// when no benchmark has that name (`import-csv` is not the family of
    /// `import-csv-scale`).
    static func selects(_ name: String, _ benchmark: any Benchmark) -> Bool {
        if benchmark.name == name { return true }
        return benchmark.name.hasPrefix(name + "-") && !benchmarks.contains { $0.name == name }
    }

    /// The usage text.
    static var help: String {
        var text = """
            Usage: strata-bench [NAME...] [--rows N] [--runs K] [--gen PATH]

            Runs Strata and a peer on the same generated data, each in its own process,
            and prints median times, their ratio (Strata / peer) and peak RSS.
            Build in release mode first (`make bench` does both).

            Options:
              --rows N    rows of input (default: each benchmark's, 1000000)
              --runs K    runs of each side, alternating (default 3)
              --gen PATH  the corpus generator (default ../shared/bench/gen.py,
                          relative to the package root)

            Benchmarks:

            """
        let width = max(16, (benchmarks.map(\.name.count).max() ?? 0) + 2)
        for benchmark in benchmarks {
            text +=
                "  " + benchmark.name.padding(toLength: width, withPad: " ", startingAt: 0)
                + benchmark.summary + "\n"
        }
        text +=
            "  " + ServeBenchmark.name.padding(toLength: width, withPad: " ", startingAt: 0)
            + ServeBenchmark.summary + "\n"
        return text
    }

    /// Runs the command and returns the exit status: 0, 1 on failure,
    /// 64 on bad usage.
    static func main(_ arguments: [String]) -> Int32 {
        do {
            if arguments.first == "--worker" {
                try runWorker(Array(arguments.dropFirst()))
                return 0
            }
            if arguments.contains("--help") || arguments.contains("-h") {
                print(help, terminator: "")
                return 0
            }
            try runBenchmarks(arguments)
            return 0
        } catch let error as BenchError {
            log("strata-bench: \(error.message)")
            if error.kind == .usage { log("See `strata-bench --help`.") }
            return error.kind == .usage ? 64 : 1
        } catch {
            log("strata-bench: \(error)")
            return 1
        }
    }

    private static func runWorker(_ arguments: [String]) throws {
        guard let name = arguments.first, let worker = Worker.all.first(where: { $0.name == name })
        else {
            throw BenchError(.usage, "--worker takes one of: \(Worker.all.map(\.name))")
        }
        try worker.run(Worker.parseOptions(Array(arguments.dropFirst())))
    }

    private static func runBenchmarks(_ arguments: [String]) throws {
        var names: [String] = []
        var rows: Int?
        var runs = 3
        var generator: String?
        var index = 0
        func value(of flag: String) throws -> String {
            index += 1
            guard index < arguments.count else {
                throw BenchError(.usage, "\(flag) needs a value")
            }
            return arguments[index]
        }
        while index < arguments.count {
            let argument = arguments[index]
            switch argument {
            case "--rows":
                guard let number = Int(try value(of: argument)), number > 0 else {
                    throw BenchError(.usage, "--rows takes a positive integer")
                }
                rows = number
            case "--runs":
                guard let number = Int(try value(of: argument)), number > 0 else {
                    throw BenchError(.usage, "--runs takes a positive integer")
                }
                runs = number
            case "--gen":
                generator = try value(of: argument)
            case _ where argument.hasPrefix("-"):
                throw BenchError(.usage, "unknown option `\(argument)`")
            case ServeBenchmark.name:
                names.append(argument)
            default:
                guard benchmarks.contains(where: { selects(argument, $0) }) else {
                    throw BenchError(.usage, "no benchmark named `\(argument)`")
                }
                names.append(argument)
            }
            index += 1
        }

        #if DEBUG
            log("strata-bench: warning: a debug build; its figures mean nothing (use -c release)")
        #endif
        let root = try PackageRoot.find()
        let runner = BenchRunner(
            packageRoot: root,
            generator: URL(
                fileURLWithPath: generator ?? "../shared/bench/gen.py", relativeTo: root
            ).standardizedFileURL,
            rows: rows, runs: runs)
        let selected =
            names.isEmpty
            ? benchmarks
            : benchmarks.filter { benchmark in names.contains { selects($0, benchmark) } }
        for benchmark in selected {
            let result = try runner.run(benchmark)
            print(result.report)
        }
        // The web view is timed over HTTP, not as a process against a peer's.
        if names.isEmpty || names.contains(ServeBenchmark.name) {
            print(try ServeBenchmark.run(packageRoot: root, rows: rows))
        }
    }
}
