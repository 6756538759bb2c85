import StrataSchema

/// What the pages need of each entity, worked out once from the model
/// (inheritance resolved) rather than on every cell and link of every page.
struct SiteEntities: Sendable {
    /// One entity's shape.
    struct Shape: Sendable {
        /// The attributes an object stores (transient ones left out).
        var stored: [Attribute] = []
        /// ``stored`` as pages show them: ``label`` first, the rest in the
        /// model's order.
        var shown: [Attribute] = []
        /// The attribute a link to an object shows: the first of `title`,
        /// `name`, `displayName` or `label`, else the first text attribute.
        var label: Attribute?
        /// The relationships an object stores.
        var relationships: [Relationship] = []
        /// The entities a fetch includes: itself and its subentities.
        var tree: [String] = []
    }

    private let shapes: [String: Shape]

    init(model: Model) {
        var shapes: [String: Shape] = [:]
        for entity in model.entities {
            var shape = Shape()
            shape.stored = model.allAttributes(of: entity.name).filter { !$0.isTransient }
            let texts = shape.stored.filter { $0.type == .string }
            shape.label =
                texts.first { ["title", "name", "displayName", "label"].contains($0.name) }
                ?? texts.first
            shape.shown = shape.stored
            if let label = shape.label,
                let index = shape.shown.firstIndex(where: { $0.name == label.name })
            {
                shape.shown.insert(shape.shown.remove(at: index), at: 0)
            }
            shape.relationships = model.allRelationships(of: entity.name).filter { !$0.isTransient }
            shape.tree = model.entityTree(rootedAt: entity.name).map(\.name)
            shapes[entity.name] = shape
        }
        self.shapes = shapes
    }

    /// The shape of `entity`; an empty one for a name the model lacks.
    subscript(entity: String) -> Shape { shapes[entity] ?? Shape() }
}
