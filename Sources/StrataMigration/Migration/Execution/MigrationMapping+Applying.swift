import StrataStore

// MARK: - Mapping files in copy stages

extension MigrationMapping: MigrationMappingApplying {
    /// The mapping file's path.
    public var origin: String { file }

    /// The version the file writes.
    public var endVersion: Int? { destination.version }

    /// Whether the file supplies what `step` lacks or acknowledges its loss
    /// (``covers(_:)``).
    public func resolves(_ step: MigrationStep) -> Bool { covers(step) }

    /// Applies the file's rules to the work copy (the executor holds the
    /// transaction).
    public func apply(
        source: Store, destination: Store, plan: MigrationPlan,
        progress: (String, Int64) -> Void
    ) throws {
        try withoutActuallyEscaping(progress) { report in
            try apply(source: source.connection, destination: destination.connection) {
                report($0, $1)
            }
        }
    }
}
