/// What a finished migration did.
public struct MigrationReport: Sendable {
    /// The version the store was at when this run started.
    public var startVersion: Int
    /// The version the store is at now.
    public var finalVersion: Int
    /// The stages this run committed, by name (`1-3`); empty when the store
    /// was already up to date.
    public var completedStages: [String]
    /// The stages an interrupted earlier run had committed, which this run
    /// did not repeat.
    public var resumedAfter: [String]
    /// Objects per entity before the run (at the start version); empty
    /// unless ``MigrationOptions/reportsRowCounts`` is on.
    public var rowsBefore: [String: Int64]
    /// Objects per entity after the run (at the final version); empty
    /// unless ``MigrationOptions/reportsRowCounts`` is on.
    public var rowsAfter: [String: Int64]
    /// Where the objects of an entity the run removed went, by its name:
    /// the newer entities that continue its subentities (objc.io Moody's
    /// abstract `GeographicRegion` → `Continent`, `Country`). An entity
    /// whose objects were deleted is not listed.
    public var movedObjects: [String: [String]] = [:]
    /// The losses and empty required values the run accepted
    /// (``MigrationOptions/asCoreData``, or lossy steps under
    /// ``MigrationOptions/acceptsLossySteps`` when counted), each with its
    /// count: nothing is lost without a word.
    public var accepted: [MigrationPreview.Finding] = []
    /// How the store's version was told, when it needed saying
    /// (``MigrationPreview/versionNotes``).
    public var versionNotes: [String] = []
    /// The backup copy the run kept while its stages ran (removed when the
    /// last one committed), or why it kept none.
    public var backup: Backup = .notNeeded

    /// Whether a run kept a backup of the store, and which.
    public enum Backup: Hashable, Sendable {
        /// Made by this run before `beforeStage`, the first stage that could
        /// lose something; `name` is the file beside the store, named after
        /// the version it held.
        case made(name: String, beforeStage: String)
        /// Made by the interrupted run this one went on with.
        case resumed(name: String)
        /// None needed: every stage commits or rolls back in one
        /// transaction, and none before the last could lose something
        /// (``MigrationOptions/keepsBackup`` explains the rule).
        case notNeeded
        /// None: ``MigrationOptions/keepsBackup`` was off.
        case off
    }
}
