import Foundation

/// A comparison of Strata against one or more peers on the same data.
///
/// A benchmark only plans; ``BenchRunner`` runs the plan, alternating the
/// sides, and reports.
protocol Benchmark: Sendable {
    /// The name given on the command line, such as `context-insert`.
    var name: String { get }
    /// One line for `--help`: what is compared with what.
    var summary: String { get }
    /// The row count used when `--rows` is not given.
    var defaultRows: Int { get }

    /// Prepares everything untimed (corpus, peer input) and returns the
    /// contenders.
    func plan(in environment: BenchEnvironment) throws -> BenchPlan
}

/// What a benchmark needs from the runner.
struct BenchEnvironment {
    /// The package root (holding `Package.swift` and `Schemas/`).
    var packageRoot: URL
    /// The generated input.
    var corpus: Corpus
    /// A scratch folder of this benchmark, for stores and other outputs.
    var workspace: URL
    /// This program, re-invoked with `--worker` for the Strata side.
    var executable: String
    /// The corpus generator, `gen.py`, for benchmarks that need another corpus.
    var generator: URL
    /// Where corpora are cached.
    var cache: URL
}

/// The sides of a benchmark, ready to run.
struct BenchPlan {
    /// The Strata side.
    var strata: Contender
    /// The peers, in the order of the table; usually one.
    var peers: [Contender]
    /// Checks, once after the first round, that the sides produced the same
    /// result.
    var compare: () throws -> Void
    /// The figures the benchmark is meant to reach, judged under the table.
    var targets: [BenchTarget] = []

    /// A plan with one peer.
    init(
        strata: Contender, peer: Contender, compare: @escaping () throws -> Void,
        targets: [BenchTarget] = []
    ) {
        self.init(strata: strata, peers: [peer], compare: compare, targets: targets)
    }

    /// A plan with any number of peers.
    init(
        strata: Contender, peers: [Contender], compare: @escaping () throws -> Void,
        targets: [BenchTarget] = []
    ) {
        self.strata = strata
        self.peers = peers
        self.compare = compare
        self.targets = targets
    }
}

/// One side of a benchmark.
struct Contender {
    /// What runs, for the table (`Context, save every 10000`).
    var title: String
    /// Resets the side's state (untimed) and returns the command to time.
    var prepareRun: () throws -> ChildCommand
    /// Checks (untimed) what the run left behind.
    var verify: () throws -> Void
    /// The bytes of input the side reads, when a rate (MB/s) makes sense.
    var inputBytes: Int? = nil
    /// The side's name in the table instead of `Strata` or `peer`, when
    /// both sides are Strata (a run at two sizes, say).
    var side: String? = nil
}
