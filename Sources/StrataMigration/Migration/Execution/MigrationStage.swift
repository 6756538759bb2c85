import StrataCore
import StrataStore

/// One unit of a migration run: a plan between two versions of the chain,
/// carried out in one commit (or one file swap), recorded in the journal.
///
/// Consecutive versions with nothing but inferred, lossy or discarded
/// steps are fused into one stage, so each table is rebuilt at most once;
/// a version pair with a custom step or a mapping file is a stage of its own.
public struct MigrationStage {
    /// How a stage changes the store.
    public enum Mode: String, Hashable, Sendable {
        /// The plan's SQL runs on the store itself, in one transaction.
        case inPlace = "in-place"
        /// The plan's SQL runs on a work copy, a mapping or custom step then
        /// fills it from the untouched store, and the copy replaces the store
        /// in one rename.
        case copy
    }

    /// The version the stage starts from.
    public let from: Int
    /// The version the stage ends at.
    public let to: Int
    /// The plan between the two versions (renames followed through every
    /// version between them).
    public let plan: MigrationPlan
    /// The mapping file for the pair, when there is one.
    public let mapping: (any MigrationMappingApplying)?
    /// The Swift step for the pair, when there is one.
    public let customStep: (any CustomMigrationStep)?

    /// How the stage changes the store.
    public var mode: Mode { mapping == nil && customStep == nil ? .inPlace : .copy }

    /// `1-3`: the name the journal records the stage under.
    public var name: String { "\(from)-\(to)" }

    /// This stage with its plan's SQL fitted to the store `connection`
    /// holds (``MigrationPlan``'s `fitted(to:path:)`).
    func fitted(to connection: Connection, path: String) throws -> MigrationStage {
        MigrationStage(
            from: from, to: to, plan: try plan.fitted(to: connection, path: path),
            mapping: mapping, customStep: customStep)
    }

    /// Whether the mapping or custom step answers for `step`.
    func isResolved(_ step: MigrationStep) -> Bool {
        (mapping?.resolves(step) ?? false) || (customStep?.resolves(step) ?? false)
    }
}

/// What a mapping file does in a copy stage, as the executor sees it: it
/// names the steps it resolves and fills the work copy from the source.
public protocol MigrationMappingApplying {
    /// Where the mapping comes from, for messages (a file path).
    var origin: String { get }
    /// Whether the mapping supplies what `step` lacks (or acknowledges its
    /// loss).
    func resolves(_ step: MigrationStep) -> Bool
    /// Fills `destination` (the work copy, already migrated by the inferred
    /// plan, inside a transaction the executor commits) from `source`.
    ///
    /// - Parameters:
    ///   - source: The untouched store at the older version, read only.
    ///   - destination: The work copy at the newer version.
    ///   - plan: The plan between the two versions.
    ///   - progress: Called with an entity name and the rows done so far.
    func apply(
        source: Store, destination: Store, plan: MigrationPlan,
        progress: (String, Int64) -> Void) throws
    /// The version the mapping writes, when it spans more than one version
    /// pair (`3-7.mapping.json`); nil for the next version.
    var endVersion: Int? { get }
    /// The custom migration policies the mapping names; a stage through it
    /// runs only when a Swift step stands in for each
    /// (``MigrationOptions/policySteps``).
    var policies: [MappingPolicy] { get }
}

extension MigrationMappingApplying {
    /// nil: the mapping joins its start version and the next one.
    public var endVersion: Int? { nil }
    /// None.
    public var policies: [MappingPolicy] { [] }
}
