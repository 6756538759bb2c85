import Foundation

/// The record of a migration run kept in the store's metadata (key
/// `StrataMigrationJournal`), committed with each stage: where the run
/// started, where it goes, which stages are done and where the backup is.
///
/// A store killed mid-run is at the end of its last committed stage; its
/// metadata already describes that version, so a re-run detects it and goes
/// on. The journal tells the re-run that the backup belongs to this run (and
/// must be kept, not replaced), and the final stage removes it.
public struct MigrationJournal: Hashable, Sendable {
    /// The metadata key.
    static let key = "StrataMigrationJournal"

    /// The version the run started from.
    public var startVersion: Int
    /// The version the run is going to.
    public var targetVersion: Int
    /// The stages committed so far, by name (`1-3`).
    public var completedStages: [String]
    /// The backup's file name beside the store, when one was made.
    public var backupName: String?
    /// When the run started.
    public var started: Date

    /// Reads the journal from `metadata`, nil when there is none or it is
    /// not one Strata wrote.
    init?(_ metadata: StoreMetadata) {
        guard case .dictionary(let fields)? = metadata.otherKeys[Self.key],
            case .integer(let start)? = fields["start"],
            case .integer(let target)? = fields["target"]
        else { return nil }
        startVersion = Int(start)
        targetVersion = Int(target)
        if case .array(let names)? = fields["completed"] {
            completedStages = names.compactMap {
                if case .string(let name) = $0 { return name } else { return nil }
            }
        } else {
            completedStages = []
        }
        if case .string(let name)? = fields["backup"] { backupName = name }
        if case .date(let date)? = fields["started"] {
            started = date
        } else {
            started = Date(timeIntervalSinceReferenceDate: 0)
        }
    }

    init(startVersion: Int, targetVersion: Int, backupName: String?, started: Date = Date()) {
        self.startVersion = startVersion
        self.targetVersion = targetVersion
        self.completedStages = []
        self.backupName = backupName
        self.started = started
    }

    /// `metadata` carrying this journal.
    func stored(in metadata: StoreMetadata) -> StoreMetadata {
        var copy = metadata
        var fields: [String: PlistValue] = [
            "start": .integer(Int64(startVersion)),
            "target": .integer(Int64(targetVersion)),
            "completed": .array(completedStages.map { .string($0) }),
            "started": .date(started),
        ]
        if let backupName { fields["backup"] = .string(backupName) }
        copy.otherKeys[Self.key] = .dictionary(fields)
        return copy
    }

    /// `metadata` without any journal.
    static func removed(from metadata: StoreMetadata) -> StoreMetadata {
        var copy = metadata
        copy.otherKeys[key] = nil
        return copy
    }
}
