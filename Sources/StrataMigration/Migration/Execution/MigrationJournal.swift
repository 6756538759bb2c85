import Foundation
import StrataCore
import StrataStore

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

    /// Reads the journal from `metadata`: nil when there is none.
    ///
    /// A journal is read from the store, so it is not trusted: the backup
    /// it names must be one Strata makes for this store
    /// (`<store>.strata-backup-v<n>`, beside it, `n` from the start version
    /// to the target); any other name — a
    /// path, `..`, another file — would let a crafted store steer the
    /// migrator to a file it then removes.
    ///
    /// - Parameters:
    ///   - metadata: The store's metadata.
    ///   - store: The store's location, for the backup's expected name.
    /// - Throws: ``MigrationError`` (`invalidJournal`) naming the key that
    ///   is malformed.
    init?(_ metadata: StoreMetadata, store: URL) throws {
        guard let value = metadata.otherKeys[Self.key] else { return nil }
        let path = store.relativePath
        func refuse(_ field: String, _ problem: String) -> MigrationError {
            MigrationError(
                .invalidJournal,
                message: "\(path): metadata key \(Self.key).\(field) \(problem); nothing "
                    + "was changed. The store carries a journal Strata did not write")
        }
        guard let fields = value.entries else {
            throw refuse("", "is not a dictionary")
        }
        guard case .integer(let start)? = fields["start"], start >= 1, start <= Int32.max else {
            throw refuse("start", "is not a version number")
        }
        guard case .integer(let target)? = fields["target"], target >= start,
            target <= Int32.max
        else {
            throw refuse("target", "is not a version number at or after start")
        }
        startVersion = Int(start)
        targetVersion = Int(target)
        completedStages = []
        switch fields["completed"] {
        case nil: break
        case .array(let names)?:
            for name in names {
                guard case .text(let name) = name.value else {
                    throw refuse("completed", "holds something other than stage names")
                }
                completedStages.append(name)
            }
        default:
            throw refuse("completed", "is not a list of stage names")
        }
        switch fields["backup"] {
        case nil: backupName = nil
        case .text(let name)?:
            // The backup of a version the run passes (made before its first
            // stage that can lose something), by Strata's own spelling.
            let expected = StoreBackup.name(of: store, version: startVersion)
            let prefix = expected.dropLast(String(startVersion).count)
            let version = name.hasPrefix(prefix) ? Int(name.dropFirst(prefix.count)) : nil
            guard let version, version >= startVersion, version <= targetVersion,
                name == StoreBackup.name(of: store, version: version)
            else {
                throw refuse(
                    "backup",
                    "names '\(name)', not the backup Strata makes for this store ('\(expected)')")
            }
            backupName = name
        default:
            throw refuse("backup", "is not a file name")
        }
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
        var fields: [String: RecordValue] = [
            "start": .integer(Int64(startVersion)),
            "target": .integer(Int64(targetVersion)),
            "completed": .array(values: completedStages.map { .text($0) }),
            "started": .date(started),
        ]
        if let backupName { fields["backup"] = .text(backupName) }
        copy.otherKeys[Self.key] = .dictionary(entries: fields)
        return copy
    }

    /// `metadata` without any journal.
    static func removed(from metadata: StoreMetadata) -> StoreMetadata {
        var copy = metadata
        copy.otherKeys[key] = nil
        return copy
    }
}
