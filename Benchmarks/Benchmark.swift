import Foundation

/// A comparison of Strata against one peer on the same data.
///
/// A benchmark only plans; ``BenchRunner`` runs the plan, alternating the
/// two sides, and reports.
protocol Benchmark: Sendable {
    /// The name given on the command line, such as `context-insert`.
    var name: String { get }
    /// One line for `--help`: what is compared with what.
    var summary: String { get }
    /// The row count used when `--rows` is not given.
    var defaultRows: Int { get }

    /// Prepares everything untimed (corpus, peer input) and returns the two
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
}

/// The two sides of a benchmark, ready to run.
struct BenchPlan {
    /// The Strata side.
    var strata: Contender
    /// The peer side.
    var peer: Contender
    /// Checks, once after the first round, that both sides produced the same
    /// result.
    var compare: () throws -> Void
}

/// One side of a benchmark.
struct Contender {
    /// What runs, for the table (`Context, save every 10000`).
    var title: String
    /// Resets the side's state (untimed) and returns the command to time.
    var prepareRun: () throws -> ChildCommand
    /// Checks (untimed) what the run left behind.
    var verify: () throws -> Void
}
