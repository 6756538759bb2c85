import Foundation

/// Runs benchmarks: prepares the corpus, then times each side `runs` times,
/// alternating them (Strata, peer, then peer, Strata, …; with several peers
/// the whole order reverses each round) so that drift in the machine's load
/// falls on all alike.
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
    /// - Returns: The samples of every side.
    /// - Throws: ``BenchError`` from the setup, a contender or a check.
    func run(_ benchmark: any Benchmark) throws -> BenchResult {
        let rows = self.rows ?? benchmark.defaultRows
        let corpus = try Corpus.prepare(rows: rows, generator: generator, cache: cache)
        let workspace = cache.appendingPathComponent("work/\(benchmark.name)", isDirectory: true)
        try FileManager.default.createDirectory(at: workspace, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: workspace) }  // Scratch stores only.

        let environment = BenchEnvironment(
            packageRoot: packageRoot, corpus: corpus, workspace: workspace,
            executable: try ChildCommand.currentExecutable(), generator: generator, cache: cache)
        let plan = try benchmark.plan(in: environment)
        let contenders = [plan.strata] + plan.peers
        let labels =
            [plan.strata.side ?? "Strata"]
            + plan.peers.enumerated().map { index, peer in
                peer.side ?? (plan.peers.count == 1 ? "peer" : "peer \(index + 1)")
            }
        var result = BenchResult(
            name: benchmark.name, rows: rows,
            sides: zip(labels, contenders).map { label, contender in
                BenchResult.Side(
                    label: label, title: contender.title, inputBytes: contender.inputBytes)
            },
            targets: plan.targets)
        let width = labels.map(\.count).max() ?? 0
        for round in 1...runs {
            let order = round % 2 == 1 ? Array(contenders.indices) : contenders.indices.reversed()
            for index in order {
                let contender = contenders[index]
                let command = try contender.prepareRun()
                let sample = try ChildProcess.run(command)
                try contender.verify()
                result.sides[index].samples.append(sample)
                log(
                    "\(benchmark.name) run \(round)/\(runs) "
                        + "\(labels[index].padding(toLength: width, withPad: " ", startingAt: 0)): "
                        + "\(BenchResult.seconds(sample.seconds)) s, "
                        + "\(BenchResult.mebibytes(sample.peakKiB)) MiB")
            }
            if round == 1 { try plan.compare() }
        }
        return result
    }
}
