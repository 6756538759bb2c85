import StrataSchema
import StrataStore

/// The two versions a plan is made for, their store layouts and how their
/// elements correspond: what both the step finder and the SQL builder read.
struct PlanContext: Sendable {
    let source: Model
    let destination: Model
    let match: SchemaCorrespondence
    let sourceLayout: StoreLayout
    let destinationLayout: StoreLayout
    let sourceNumbers: [String: Int]
    let destinationNumbers: [String: Int]

    /// - Parameter sourceLayout: The source version's layout as the store
    ///   has it (``StoreLayout``'s `fitted(to:)`); nil computes it from the
    ///   model.
    init(
        source: Model, destination: Model, match: SchemaCorrespondence,
        sourceLayout: StoreLayout? = nil
    ) {
        self.source = source
        self.destination = destination
        self.match = match
        self.sourceLayout = sourceLayout ?? StoreLayout(model: source)
        destinationLayout = StoreLayout(model: destination)
        sourceNumbers = source.entityNumbers
        destinationNumbers = destination.entityNumbers
    }

    /// The older entity that the newer entity `name` continues.
    func formerEntity(of name: String) -> String? { match.entities[name] }

    /// The older attribute of the older entity that attribute `name` of the
    /// newer entity `entity` continues (own or inherited, on both sides).
    func formerAttribute(_ name: String, of entity: String) -> Attribute? {
        guard let former = match.entities[entity], let old = match.attributes[entity]?[name]
        else { return nil }
        return source.allAttributes(of: former).first { $0.name == old }
    }

    /// Like ``formerAttribute(_:of:)``, for relationships.
    func formerRelationship(_ name: String, of entity: String) -> Relationship? {
        guard let former = match.entities[entity], let old = match.relationships[entity]?[name]
        else { return nil }
        return source.allRelationships(of: former).first { $0.name == old }
    }

    /// The entity of `model` that declares property `name` as seen from
    /// `entity`: itself or its nearest ancestor that has it.
    static func declaringEntity(
        of name: String, from entity: String, in model: Model
    ) -> String? {
        guard let start = model.entity(named: entity) else { return nil }
        return ([start] + model.ancestors(of: entity)).first {
            $0.attribute(named: name) != nil || $0.relationship(named: name) != nil
        }?.name
    }

    /// The table that holds the newer entity `name`'s rows.
    func destinationTable(of name: String) -> String? {
        destinationLayout.entity(named: name)?.tableName
    }

    /// The table that held the older entity `name`'s rows.
    func sourceTable(of name: String) -> String? {
        sourceLayout.entity(named: name)?.tableName
    }

    /// The tables of a step on the newer entity `entity`: its table now and,
    /// when it differs, the one it had before.
    func tables(ofEntity entity: String) -> [String] {
        let now = destinationTable(of: entity)
        let before = formerEntity(of: entity).flatMap(sourceTable(of:))
        return Array(Set([now, before].compactMap { $0 })).sorted()
    }
}
