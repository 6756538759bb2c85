/// A migration step written in Swift, for what no mapping file can say.
///
/// The step runs between two adjacent versions. Before it runs, the
/// destination already holds everything the inferred plan carries over
/// (same primary keys, renamed entities and properties moved); the step reads
/// the source objects and sets what is missing on their counterparts.
///
/// ```swift
/// struct FullNames: CustomMigrationStep {
///     func migrate(_ work: CustomStepWork) throws {
///         try work.forEachSourceObject(of: "Person") { person, destination in
///             let first = try person.string("firstName") ?? ""
///             let last = try person.string("lastName") ?? ""
///             try destination?.set("name", "\(first) \(last)")
///         }
///     }
/// }
/// ```
public protocol CustomMigrationStep {
    /// Moves the data that needs help from the source to the destination.
    ///
    /// - Throws: Anything; the stage stops and the store is left as it was
    ///   before the stage.
    func migrate(_ work: CustomStepWork) throws

    /// Whether this step supplies what a lossy or needs-mapping `step`
    /// of its stage lacks. By default a custom step answers for every step
    /// of its stage.
    func resolves(_ step: MigrationStep) -> Bool
}

extension CustomMigrationStep {
    /// Answers for every step of the stage.
    public func resolves(_ step: MigrationStep) -> Bool { true }
}
