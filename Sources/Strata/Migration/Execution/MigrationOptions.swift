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
    /// has succeeded (`<store>.strata-backup-v<version>`). On by default.
    public var keepsBackup = true
    /// Whether lossy steps that no mapping acknowledges may run. Off by
    /// default: dropping data takes a decision (a mapping's `discard`, or
    /// this flag, `--accept-lossy` on the command line).
    public var acceptsLossySteps = false
    /// Swift steps keyed by the version they start from: the step at key
    /// `n` runs between versions `n` and `n + 1`.
    public var customSteps: [Int: any CustomMigrationStep] = [:]
    /// Whether the run counts the objects of every entity before and after
    /// (``MigrationReport/rowsBefore``, ``MigrationReport/rowsAfter``). Off by
    /// default: counting reads every table, and a migration that only adds
    /// a nullable attribute otherwise reads none.
    public var reportsRowCounts = false
    /// How many objects a custom step handles between two saves.
    public var batchSize = 1000

    /// Options with every default.
    public init() {}
}
