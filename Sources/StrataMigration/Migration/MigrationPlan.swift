import StrataCore
import StrataSchema
import StrataStore

/// The typed plan that moves a store from one version of a model to another:
/// every change as a ``MigrationStep`` with its label and reason, and the SQL
/// that carries the changes out against the Core Data layout of the two
/// versions (``StoreLayout``).
///
/// Steps are sorted by the entity's number in the newer version (entities
/// that are removed come last, by their older number), then by property
/// name. Steps on one table share one ``TableChange``, so each table is
/// rebuilt at most once; a table that only gains nullable columns is altered
/// in place (`ALTER TABLE … ADD COLUMN`, constant time).
///
/// ```swift
/// let chain = try SchemaChain.load(directory: URL(fileURLWithPath: "Schemas/Diary"))
/// let plan = try MigrationPlan(chain: chain, from: 1, to: 3)
/// for step in plan.steps { print(step.label.text, step.names, step.reason) }
/// for statement in plan.statements { print(statement.sql) }
/// ```
public struct MigrationPlan: Hashable, Sendable {
    /// The version the store is at.
    public let source: Model
    /// The version the store moves to.
    public let destination: Model
    /// Every change, in the plan's deterministic order.
    public let steps: [MigrationStep]
    /// What happens to each table, in the order the tables are handled.
    public let tableChanges: [TableChange]
    /// Which older entity and property each newer one continues.
    let correspondence: SchemaCorrespondence

    /// Plans the move between two versions of a model, matching elements of
    /// `destination` to those of `source` through their `renamedFrom`.
    ///
    /// - Parameters:
    ///   - source: The version the store is at.
    ///   - destination: The version the store moves to.
    public init(from source: Model, to destination: Model) {
        self.init(
            source: source, destination: destination,
            correspondence: SchemaCorrespondence(from: source, to: destination))
    }

    /// Plans the move between two versions of a chain in one go, following
    /// renames through every version between them: a property renamed in
    /// version 2 and again in version 3 keeps its values from version 1 to 3.
    ///
    /// - Parameters:
    ///   - chain: The model's versions.
    ///   - from: The version the store is at.
    ///   - to: The version the store moves to; not older than `from`.
    /// - Throws: ``MigrationError`` when a version is not in the chain or
    ///   `to` is older than `from`.
    public init(chain: SchemaChain, from: Int, to: Int) throws(MigrationError) {
        try self.init(
            chain: chain, from: from, to: to, correspondences: ChainCorrespondences(chain),
            matching: .chain)
    }

    /// How the elements of the two ends of a span of versions are matched.
    enum Matching: Hashable, Sendable {
        /// Renames followed through every version between, filled from the
        /// direct matches (Strata's default: never less than Core Data).
        case chain
        /// The direct matches of the two ends only, as Core Data's inferred
        /// mapping makes them (`--as-core-data`).
        case coreData
    }

    /// Plans the move between two versions of a chain whose adjacent
    /// matches are already computed (one run plans many spans).
    init(
        chain: SchemaChain, from: Int, to: Int, correspondences: ChainCorrespondences,
        matching: Matching
    ) throws(MigrationError) {
        let known = chain.versions.map { String($0.version) }.joined(separator: ", ")
        for version in [from, to] where chain.model(version: version) == nil {
            throw MigrationError(
                .unknownVersion,
                message: "\(chain.name) has no version \(version) (versions: \(known))")
        }
        guard from <= to else {
            throw MigrationError(
                .downgrade,
                message: "cannot plan from version \(from) down to \(to); Strata only upgrades")
        }
        guard let source = chain.model(version: from), let destination = chain.model(version: to),
            let match = correspondences.matches(from: from, to: to, matching)
        else {
            throw MigrationError(.unknownVersion, message: "\(chain.name) has no versions")
        }
        self.init(source: source, destination: destination, correspondence: match)
    }

    init(
        source: Model, destination: Model, correspondence: SchemaCorrespondence,
        sourceLayout: StoreLayout? = nil
    ) {
        self.source = source
        self.destination = destination
        self.correspondence = correspondence
        let context = PlanContext(
            source: source, destination: destination, match: correspondence,
            sourceLayout: sourceLayout)
        var finder = StepFinder(context)
        let steps = finder.findSteps()
        self.steps = steps
        var script = MigrationScriptBuilder(context, steps: steps)
        self.tableChanges = script.build()
    }

    /// Every statement of the plan, in the order they run: new tables are
    /// built from the old ones first, then kept tables are altered, old
    /// tables dropped, new ones renamed and indexed, and `Z_PRIMARYKEY`
    /// rewritten last.
    public var statements: [MigrationStatement] {
        orderedStatements.map(\.statement)
    }

    /// ``statements`` with the table each one belongs to.
    var orderedStatements: [(table: String, statement: MigrationStatement)] {
        tableChanges.flatMap { change in change.statements.map { (change.table, $0) } }
            .enumerated()
            .sorted {
                ($0.element.1.phase, $0.offset) < ($1.element.1.phase, $1.offset)
            }
            .map { (table: $0.element.0, statement: $0.element.1) }
    }

    /// The statements that carry out the step at `index` in ``steps``,
    /// shared with the steps fused with it; empty for a metadata-only step.
    public func statements(forStep index: Int) -> [MigrationStatement] {
        tableChanges.filter { $0.steps.contains(index) }.flatMap(\.statements)
    }

    /// The hardest label of any step: `inferred` for an empty plan.
    public var label: MigrationLabel {
        steps.map(\.label).max() ?? .inferred
    }

    /// Whether the plan changes nothing.
    public var isEmpty: Bool { steps.isEmpty }
}

// MARK: - Fitting a plan to a store

extension MigrationPlan {
    /// This plan with its SQL written for the store `connection` holds,
    /// which may name things differently from the source version's computed
    /// layout: join tables are found by their two key columns, and indexes
    /// are dropped or kept by the names `sqlite_master` lists.
    ///
    /// - Parameters:
    ///   - connection: The store's connection, at the source version; only
    ///     read.
    ///   - path: The store's path, for messages.
    /// - Throws: ``MigrationError`` (`structureMismatch`) when the store has
    ///   no table for a many-to-many pair of the source version, before
    ///   anything is written; ``SQLiteError`` when the store cannot be read.
    func fitted(to connection: Connection, path: String) throws -> MigrationPlan {
        let (layout, missing) = try StoreLayout(model: source).fitted(to: connection)
        guard missing.isEmpty else {
            let described = missing.map { join in
                let other =
                    "Z_\(source.entityNumbers[join.inverseSide.entity] ?? 0)"
                    + join.inverseSide.relationship.uppercased()
                let pair =
                    join.isOneSided
                    ? "" : " and \(join.inverseSide.entity).\(join.inverseSide.relationship)"
                return "the join table of \(join.namingSide.entity).\(join.namingSide.relationship)"
                    + pair + " is "
                    + "missing: no table has both columns \(join.sourceColumn) and "
                    + "\(join.destinationColumn) (expected under \(join.name)"
                    + (join.isOneSided ? ")" : " or \(other))")
            }
            throw MigrationError(
                .structureMismatch,
                message: "\(path): the tables do not match version \(source.version), which "
                    + "the store's metadata claims; nothing was changed:\n  "
                    + described.joined(separator: "\n  "))
        }
        return MigrationPlan(
            source: source, destination: destination, correspondence: correspondence,
            sourceLayout: layout)
    }
}
