import Foundation
import Strata

/// How one store of a run of `strata migrate` on several stores ended: its
/// JSON line (`--json`) or its text lines.
///
/// The line's fields: `path`, `outcome`, `from` and `to` (the versions; null
/// when the store's was not found), `counts` (objects per entity `before`
/// and `after`, as the single-store result counts them; `after` is null in
/// a dry run), `accepted` (losses accepted as asked), `notes` (how the
/// version was told), `problems` (why a store was refused or failed),
/// `seconds` and `dryRun`. Every line has every key.
struct StoreMigrationResult: Encodable, Sendable {
    /// The four ends a store comes to.
    enum Outcome: String, Encodable, Sendable {
        /// Moved to the target version; in a dry run, the run would move it
        /// (its rehearsal passed).
        case migrated
        /// Already at the target version.
        case upToDate = "up-to-date"
        /// Left as it was, for a reason in the input: not a store, a store
        /// of another model or of a version the schemas cannot reach, a loss
        /// or empty required value nothing resolves, locked by another
        /// process, not writable.
        case refused
        /// Reading or writing the store went wrong: damaged, a full disk, a
        /// stage whose checks failed (rolled back; earlier stages stay, and
        /// a second run goes on from there).
        case failed

        /// The end a store whose run threw `error` came to.
        init(classifying error: any Error) {
            switch error {
            case let error as StoreError:
                let refusals: Set<StoreError.Code> = [
                    .notFound, .alreadyExists, .notADatabase, .notCoreDataStore, .unknownVersion,
                    .noModel, .unsupportedFeature, .schemaMismatch, .locked, .readOnly,
                ]
                self = refusals.contains(error.code) ? .refused : .failed
            case let error as MigrationError:
                let refusals: Set<MigrationError.Code> = [
                    .unknownVersion, .downgrade, .unknownStoreVersion, .newerThanSchemas,
                    .preflightFailed, .invalidMapping, .fileInTheWay, .invalidJournal,
                    .structureMismatch,
                ]
                self = refusals.contains(error.code) ? .refused : .failed
            default:  // SQLite's and the file system's errors (StoreActivity).
                self = .failed
            }
        }
    }

    /// Objects per entity, as ``MigrationReportJSON`` has them.
    struct Counts: Encodable, Sendable {
        /// At the version the store was at.
        var before: [String: Int64]
        /// At the version reached; nil in a dry run.
        var after: [String: Int64]?

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(before, forKey: .before)
            try container.encode(after, forKey: .after)  // null, not left out
        }

        private enum CodingKeys: String, CodingKey { case before, after }
    }

    var path: String
    var dryRun: Bool
    var outcome = Outcome.failed
    var from: Int?
    var to: Int?
    var counts: Counts?
    var accepted: [String] = []
    var notes: [String] = []
    var problems: [String] = []
    var seconds = 0.0

    /// A result for the store at `path` that has not ended yet.
    init(path: String, dryRun: Bool) {
        self.path = path
        self.dryRun = dryRun
    }

    /// Whether the store ended migrated or up to date.
    var succeeded: Bool { outcome == .migrated || outcome == .upToDate }

    /// Takes what a finished run says, through the single-store result's
    /// JSON, so the two report the same values.
    mutating func record(_ report: MigrationReport) {
        let json = MigrationReportJSON(report)
        outcome = json.completedStages.isEmpty ? .upToDate : .migrated
        from = json.startVersion
        to = json.finalVersion
        counts = Counts(before: json.rowsBefore, after: json.rowsAfter)
        accepted = json.accepted
        notes = json.versionNotes
    }

    /// Takes what a dry run says: the store would be migrated when nothing
    /// blocks it, refused with the blocking findings otherwise.
    mutating func record(_ preview: MigrationPreview) {
        let blocking = preview.blockingFindings
        outcome = preview.isUpToDate ? .upToDate : blocking.isEmpty ? .migrated : .refused
        from = preview.currentVersion
        to = preview.targetVersion
        counts = Counts(before: preview.rowCounts, after: nil)
        accepted = preview.findings.filter(\.isAccepted).map(\.message)
        notes =
            preview.versionNotes
            + preview.findings.filter { $0.severity == .warning }.map(\.message)
        problems = blocking.map(\.message)
    }

    /// Takes the error that ended the store's run.
    mutating func record(_ error: any Error) {
        outcome = Outcome(classifying: error)
        problems = ["\(error)"]
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(path, forKey: .path)
        try container.encode(outcome, forKey: .outcome)
        // Every key on every line, null when unknown: a reader of the lines
        // needs no test for a missing key.
        try container.encode(from, forKey: .from)
        try container.encode(to, forKey: .to)
        try container.encode(counts, forKey: .counts)
        try container.encode(accepted, forKey: .accepted)
        try container.encode(notes, forKey: .notes)
        try container.encode(problems, forKey: .problems)
        try container.encode(seconds, forKey: .seconds)
        try container.encode(dryRun, forKey: .dryRun)
    }

    private enum CodingKeys: String, CodingKey {
        case path, outcome, from, to, counts, accepted, notes, problems, seconds, dryRun
    }

    // MARK: - Text

    /// The first line: the path, how it ended, the versions and the time.
    var headline: String {
        let time = String(format: "%.2f s", seconds)
        let (start, end) = (from.map(String.init) ?? "?", to.map(String.init) ?? "?")
        switch outcome {
        case .migrated:
            let verb = dryRun ? "would be migrated" : "migrated"
            return "\(path): \(verb) from version \(start) to \(end) (\(time))"
        case .upToDate:
            return "\(path): up to date at version \(end) (\(time))"
        case .refused, .failed:
            return "\(path): \(outcome.rawValue) (\(time))"
        }
    }

    /// The headline, then each problem, acceptance and note indented.
    var text: String {
        let details =
            problems + accepted.map { "accepted: \($0)" } + notes.map { "note: \($0)" }
        return ([headline] + details.map { "  " + $0.replacingOccurrences(of: "\n", with: "\n  ") })
            .joined(separator: "\n")
    }
}
