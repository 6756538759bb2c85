import Foundation

/// Runs benchmarks: prepares the corpus, then times each side `runs` times,
/// alternating them (Strata, peer, then peer, Strata, …) so that drift in the
/// machine's load falls on both alike.
struct BenchRunner {
    /// The package root.
    var packageRoot: URL
    /// The corpus generator, `gen.py`.
    var generator: URL
    /// Rows to use instead of each benchmark's default.
    var rows: Int?
    /// Runs of each side.
    var runs: Int

    /// Where corpora and scratch stores are kept (ignored by git).
    var cache: URL { packageRoot.appendingPathComponent("Benchmarks/corpus", isDirectory: true) }

    /// Runs `benchmark`, verifying every run.
    ///
    /// - Returns: The samples of both sides.
    /// - Throws: ``BenchError`` from the setup, a contender or a check.
    func run(_ benchmark: any Benchmark) throws -> BenchResult {
        let rows = self.rows ?? benchmark.defaultRows
        let corpus = try Corpus.prepare(rows: rows, generator: generator, cache: cache)
        let workspace = cache.appendingPathComponent("work/\(benchmark.name)", isDirectory: true)
        try FileManager.default.createDirectory(at: workspace, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: workspace) }  // Scratch stores only.

        let environment = BenchEnvironment(
            packageRoot: packageRoot, corpus: corpus, workspace: workspace,
            executable: try ChildCommand.currentExecutable())
        let plan = try benchmark.plan(in: environment)
        var result = BenchResult(
            name: benchmark.name, rows: rows, strataTitle: plan.strata.title,
            peerTitle: plan.peer.title)
        for round in 1...runs {
            let strataFirst = round % 2 == 1
            for side in strataFirst ? [true, false] : [false, true] {
                let contender = side ? plan.strata : plan.peer
                let command = try contender.prepareRun()
                let sample = try ChildProcess.run(command)
                try contender.verify()
                if side { result.strata.append(sample) } else { result.peer.append(sample) }
                log(
                    "\(benchmark.name) run \(round)/\(runs) \(side ? "Strata" : "peer  "): "
                        + "\(BenchResult.seconds(sample.seconds)) s, "
                        + "\(BenchResult.mebibytes(sample.peakKiB)) MiB")
            }
            if round == 1 { try plan.compare() }
        }
        return result
    }
}
