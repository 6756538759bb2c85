/// A custom Core Data migration policy (`NSEntityMigrationPolicy` subclass)
/// that an entity rule names, as converted from an app's mapping model.
///
/// Strata cannot run an app's Objective-C or Swift class, and running the
/// rest of the rule without it would quietly do less than Core Data did. So
/// a migration through a rule with a policy stops before anything is
/// written, unless a Swift step stands in for the class
/// (``MigrationOptions/policySteps``):
///
/// ```swift
/// var options = MigrationOptions()
/// options.policySteps["XCServerCoreData.IntegrationStringToDateMigrationPolicy"] = DatesStep()
/// ```
public struct MappingPolicy: Hashable, Sendable {
    /// The destination entity whose rule names the policy.
    public var entity: String
    /// The class name as the app's runtime knew it (`Module.ClassName`).
    public var className: String
    /// The Core Data entity mapping the rule was converted from
    /// (`IntegrationToIntegration`), when the file says.
    public var entityMapping: String?

    /// Creates a policy reference.
    public init(entity: String, className: String, entityMapping: String? = nil) {
        self.entity = entity
        self.className = className
        self.entityMapping = entityMapping
    }
}
