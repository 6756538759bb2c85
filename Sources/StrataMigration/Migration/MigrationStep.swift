/// One change between two versions of a model, as a migration plan lists it.
///
/// ```swift
/// for step in MigrationPlan(from: v1, to: v2).steps {
///     print(step.label.text, step.kind.rawValue, step.names, step.reason)
/// }
/// ```
public struct MigrationStep: Hashable, Sendable {
    /// What changes.
    public var kind: MigrationStepKind
    /// The entity, by its name in the newer version (in the older one when
    /// the entity is removed).
    public var entity: String
    /// The property or index, by its name in the newer version (in the older
    /// one when it is removed); nil for a step on the entity itself.
    public var property: String?
    /// The entity's name in the older version, when it differs.
    public var formerEntity: String?
    /// The property's name in the older version, when it differs.
    public var formerProperty: String?
    /// Whether the step is inferred, lossy or needs a mapping.
    public var label: MigrationLabel
    /// Why the step has its label, in a sentence.
    public var reason: String
    /// For an added property or entity that looks like one removed in the
    /// same place: the removed one's name (did you mean `renamedFrom`?).
    public var suggestedRenamedFrom: String?
    /// The tables whose changes carry out the step, by their names in either
    /// version; empty when the step changes no SQL (only metadata).
    public var tables: [String]

    /// `Entity` or `Entity.property`, with the former names when they differ
    /// (`Book.title (was Book.name)`).
    public var names: String {
        let now = property.map { "\(entity).\($0)" } ?? entity
        guard formerEntity != nil || formerProperty != nil else { return now }
        let before =
            (formerEntity ?? entity) + ((formerProperty ?? property).map { ".\($0)" } ?? "")
        return before == now ? now : "\(now) (was \(before))"
    }

    init(
        _ kind: MigrationStepKind, entity: String, property: String? = nil,
        label: MigrationLabel, reason: String, tables: [String] = []
    ) {
        self.kind = kind
        self.entity = entity
        self.property = property
        self.label = label
        self.reason = reason
        self.tables = tables
    }
}
