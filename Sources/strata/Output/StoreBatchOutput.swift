import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The one writer of a run of `strata migrate` on several stores: every
/// line goes out whole, under one lock, so the lines of stores finishing at
/// once never interleave.
///
/// Each store's result goes to stdout as it ends (one JSON object per line
/// with `--json`, else its text lines); a progress line `[k/n] path:
/// outcome` goes to stderr when stderr is a terminal that stdout's text
/// lines do not already reach, or with `--progress`.
final class StoreBatchOutput: @unchecked Sendable {
    private let lock = NSLock()
    private let total: Int
    private let json: Bool
    private let dryRun: Bool
    private let showsProgress: Bool
    private var ended: [StoreMigrationResult.Outcome] = []

    /// A writer for a run over `total` stores.
    init(total: Int, json: Bool, dryRun: Bool, forceProgress: Bool) {
        self.total = total
        self.json = json
        self.dryRun = dryRun
        let stdoutShows = !json && isatty(STDOUT_FILENO) == 1
        showsProgress = forceProgress || (isatty(STDERR_FILENO) == 1 && !stdoutShows)
    }

    /// Writes a diagnostic line on stderr (a wait for a store's lock).
    func note(_ text: String) {
        lock.withLock { Terminal.error(text) }
    }

    /// Writes the result of a store that ended.
    func report(_ result: StoreMigrationResult) {
        var outcome = result.outcome
        var line: String?
        if json {
            line = try? JSONOutput.line(result)
        } else {
            line = TerminalText.escapedKeepingLines(result.text)  // Names from a folder listing.
        }
        lock.withLock {
            if let line {
                Terminal.output(line)
            } else {  // Strings, integers and a finite number: not expected.
                outcome = .failed
                Terminal.error("error: \(result.path): cannot write its JSON line")
            }
            ended.append(outcome)
            if showsProgress {
                Terminal.error("[\(ended.count)/\(total)] \(result.headline)")
            }
        }
    }

    /// Ends the run: a count of each outcome on stdout (text only), and a
    /// ``CommandFailure`` when any store did not end migrated or up to date.
    func finish() throws {
        let (counts, failures) = lock.withLock {
            (
                Dictionary(grouping: ended, by: { $0 }).mapValues(\.count),
                ended.filter { $0 == .refused || $0 == .failed }.count
            )
        }
        let migrated = (counts[.migrated] ?? 0)
        let refused = counts[.refused] ?? 0
        let failed = counts[.failed] ?? 0
        if !json {
            let stores = total == 1 ? "1 store" : "\(total) stores"
            Terminal.output(
                "\(stores): \(migrated) \(dryRun ? "would be migrated" : "migrated"), "
                    + "\(counts[.upToDate] ?? 0) up to date, \(refused) refused, \(failed) failed."
                    + (dryRun ? " Dry run: nothing was changed." : ""))
        }
        guard failures == 0 else {
            throw CommandFailure(
                message: "\(failures) of \(total) stores "
                    + (dryRun ? "would not migrate" : "were refused or failed")
                    + ": \(refused) refused, \(failed) failed"
                    + (dryRun ? "; nothing was changed" : "; the others went on"))
        }
    }
}
