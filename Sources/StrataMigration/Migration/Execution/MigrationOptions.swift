import Foundation

/// How ``Migrator`` runs a migration.
///
/// ```swift
/// var options = MigrationOptions()
/// options.targetVersion = 3
/// options.customSteps[2] = SplitNamesStep()   // runs from version 2 to 3
/// try Migrator(storeAt: url, schemas: schemas, options: options).run()
/// ```
public struct MigrationOptions {
    /// The version to move to; nil for the chain's newest.
    public var targetVersion: Int?
    /// Whether a copy of the store is kept beside it until the migration
    /// has succeeded (`<store>.strata-backup-v<version>`), made before the
    /// first stage that can lose something when another stage follows it.
    /// Each stage commits or rolls back whole, so a run whose stages only
    /// add (tables, nullable columns, indexes), or whose only lossy stage is
    /// its last, needs none (``MigrationReport/backup``). On by default.
    public var keepsBackup = true
    /// Whether lossy steps that no mapping acknowledges may run. Off by
    /// default: dropping data takes a decision (a mapping's `discard`, or
    /// this flag, `--accept-lossy` on the command line).
    public var acceptsLossySteps = false
    /// Whether the run produces what Core Data's lightweight migration
    /// would: every loss no mapping resolves is accepted (removed
    /// attributes, relationships and entities drop their values, values a
    /// new type cannot hold become nil) and every required value nothing
    /// supplies stays empty, without the required-value check. Each one
    /// accepted is reported with its count (``MigrationReport/accepted``).
    /// Off by default (`--as-core-data` on the command line): Strata's
    /// default refuses both.
    public var asCoreData = false
    /// Swift steps keyed by the version they start from: the step at key
    /// `n` runs between versions `n` and `n + 1`.
    public var customSteps: [Int: any CustomMigrationStep] = [:]
    /// Swift steps standing in for custom Core Data migration policies,
    /// keyed by the class name a mapping file's `"policy"` gives
    /// (``MappingPolicy``). Each runs in the stage of its mapping file,
    /// after the file's rules. A stage through a rule whose policy has no
    /// step here is refused before anything is written.
    public var policySteps: [String: any CustomMigrationStep] = [:]
    /// Whether the run counts the objects of every entity before and after
    /// (``MigrationReport/rowsBefore``, ``MigrationReport/rowsAfter``). Off by
    /// default: counting reads every table, and a migration that only adds
    /// a nullable attribute otherwise reads none.
    public var reportsRowCounts = false
    /// How many objects a custom step handles between two saves.
    public var batchSize = 1000
    /// How long a run waits, in seconds, for the store's ``StoreLock`` when
    /// another process is migrating or saving to it; 0 refuses at once.
    /// A run that waited for another migration usually finds the store up
    /// to date. One minute by default.
    public var lockTimeout: TimeInterval = 60
    /// Called once when a run starts waiting for the store's lock.
    public var waitingForLock: () -> Void = {}
    /// Whether a dry run (``Migrator/preview()``) rehearses the migration on
    /// a private copy of the store, so that a dry run that passes means the
    /// run passes: every mapping expression evaluated on every row, every
    /// destination rule checked, every page the run reads read. On by
    /// default; off gives the plan and the counting preflight alone.
    public var rehearses = true

    /// Options with every default.
    public init() {}
}
