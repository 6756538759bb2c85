import Foundation
import Strata

/// The CSV import's memory at two sizes: `strata import contacts.csv` of N
/// rows against the same of 10 N rows (a second corpus, generated once and
/// cached: about 950 MB at N = 1,000,000, a few minutes of `gen.py`). Peak
/// RSS must stay under 64 MB at both sizes and grow by at most 10 %.
///
/// Both sides are checked as in `import-csv`; there is nothing to compare
/// between them.
struct ImportScaleBenchmark: Benchmark {
    let name = "import-csv-scale"
    let summary = "strata import contacts.csv at N and 10 N rows: peak RSS (issue 10)"
    let defaultRows = 1_000_000

    func plan(in environment: BenchEnvironment) throws -> BenchPlan {
        let small = try ContactImport(
            corpus: environment.corpus, input: .csv,
            store: environment.workspace.appendingPathComponent("strata-n.sqlite"),
            environment: environment)
        let large = try ContactImport(
            corpus: try Corpus.prepare(
                rows: environment.corpus.rows * 10, generator: environment.generator,
                cache: environment.cache),
            input: .csv, store: environment.workspace.appendingPathComponent("strata-10n.sqlite"),
            environment: environment)
        return BenchPlan(
            strata: small.contender(
                title: "strata import, \(small.rows) rows", side: "N"),
            peer: large.contender(title: "strata import, \(large.rows) rows", side: "10N"),
            compare: {},
            targets: [
                BenchTarget(figure: .peakMegabytes(of: 0), limit: 64, inclusive: false),
                BenchTarget(figure: .peakMegabytes(of: 1), limit: 64, inclusive: false),
                BenchTarget(figure: .memoryGrowth(of: 1, over: 0), limit: 1.1),
            ])
    }
}
