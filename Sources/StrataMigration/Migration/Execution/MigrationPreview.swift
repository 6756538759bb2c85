import StrataSchema

/// What a migration would do to one store, worked out without writing
/// anything: the stages, each step with the rows it touches and what
/// resolves it, and the findings of the data-aware preflight.
///
/// ```swift
/// let preview = try Migrator(storeAt: url, schemas: schemas).preview()
/// for finding in preview.findings { print(finding.message) }
/// ```
public struct MigrationPreview {
    /// How a step that is not inferred gets what it needs.
    public enum Resolution: String, Hashable, Sendable {
        /// Nothing is needed: Core Data's lightweight rules decide.
        case inferred
        /// The stage's mapping file supplies it (or acknowledges the loss).
        case mapping
        /// A Swift custom step answers for it.
        case customStep = "custom-step"
        /// A lossy step allowed by `acceptsLossySteps` (`--accept-lossy`).
        case acceptedLoss = "accepted-loss"
        /// A loss or an empty required value accepted by
        /// ``MigrationOptions/asCoreData`` (`--as-core-data`), as Core
        /// Data's lightweight migration would leave it.
        case asCoreData = "as-core-data"
        /// Nothing resolves it: the migration is refused.
        case unresolved
    }

    /// One step of a stage, with its data.
    public struct StepPreview {
        /// The step.
        public var step: MigrationStep
        /// The objects of the step's entity in the store, when they can be
        /// counted before the run (nil for entities that only exist later).
        public var rows: Int64?
        /// How the step is resolved.
        public var resolution: Resolution
    }

    /// One stage, with its steps.
    public struct StagePreview {
        /// The stage.
        public var stage: MigrationStage
        /// Its steps, in plan order.
        public var steps: [StepPreview]
    }

    /// Something the preflight found in the data.
    public struct Finding: Hashable, Sendable, CustomStringConvertible {
        /// Whether a finding stops the migration.
        public enum Severity: String, Hashable, Sendable {
            /// The migration is refused until this is dealt with.
            case blocking
            /// Worth knowing; the migration can run.
            case note
            /// Probably a mistake in a mapping file (a `discard` entry that
            /// acknowledges nothing); the migration can run.
            case warning
        }
        /// Whether it stops the migration.
        public var severity: Severity
        /// The stage's name (`1-3`).
        public var stage: String
        /// The step, as `Entity.property`, when the finding is about one.
        public var step: String?
        /// The finding in a sentence, with counts.
        public var message: String
        /// Whether the finding is a loss or an empty required value the run
        /// accepts (`--accept-lossy`, `--as-core-data`).
        public var isAccepted = false

        /// `blocking: <message>` or `note: <message>`.
        public var description: String { "\(severity.rawValue): \(message)" }
    }

    /// The store's path.
    public var storePath: String
    /// The version the store is at.
    public var currentVersion: Int
    /// The version the migration goes to.
    public var targetVersion: Int
    /// The stages, in order.
    public var stages: [StagePreview]
    /// What the preflight found, stage by stage.
    public var findings: [Finding]
    /// The journal of an interrupted run, when the store carries one.
    public var journal: MigrationJournal?
    /// Objects per entity of the store as it is, by entity name.
    public var rowCounts: [String: Int64]
    /// How the store's version was told, when it needs saying: several
    /// versions hash alike, or the store matches no version and its own
    /// model (its model cache) is the source.
    public var versionNotes: [String] = []
    /// The chain the run follows (the store's own model first, when it is
    /// the source).
    var chain: SchemaChain?
    /// Whether the migration was rehearsed on a private copy and passed
    /// (see ``MigrationOptions/rehearses``); a failed rehearsal is a
    /// blocking finding instead.
    public var rehearsed = false

    /// Whether the store is already at the target version.
    public var isUpToDate: Bool { currentVersion == targetVersion }

    /// The findings that stop the migration.
    public var blockingFindings: [Finding] { findings.filter { $0.severity == .blocking } }
}
