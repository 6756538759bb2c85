import StrataSchema

/// The picture of a model before it becomes DOT: boxes with rows, and edges
/// between them. Built from a model (``init(model:)``) or from two versions
/// of one (`init(chain:from:to:)`), written by ``DOTWriter``.
struct DiagramGraph: Hashable, Sendable {
    /// One entity's box.
    struct Node: Hashable, Sendable {
        var name: String
        var isAbstract = false
        var change: DiagramChange?
        var attributes: [Row] = []
        var relationships: [Row] = []
    }

    /// One attribute or relationship in a box: its name and its type (or
    /// destination).
    struct Row: Hashable, Sendable {
        var name: String
        var detail: String
        var change: DiagramChange?
    }

    /// Where an edge ends: a box, and the relationship row in it when the
    /// end is a relationship.
    struct Endpoint: Hashable, Sendable {
        var node: Int
        var port: Int?
    }

    /// How many objects one side of a relationship holds.
    enum Cardinality: Hashable, Sendable {
        case one, many

        init(_ relationship: Relationship) {
            self = relationship.isToMany ? .many : .one
        }

        /// Graphviz's arrow: one head for to-one, two for to-many.
        var arrow: String {
            switch self {
            case .one: "normal"
            case .many: "normalnormal"
            }
        }
    }

    /// What an edge stands for.
    enum EdgeKind: Hashable, Sendable {
        /// A relationship from `from` to `to`, with its inverse's cardinality
        /// as `tail` when it has one (then the edge is the pair).
        case relationship(head: Cardinality, tail: Cardinality?)
        /// `from` inherits from `to`.
        case inheritance
    }

    /// One line between boxes.
    struct Edge: Hashable, Sendable {
        var kind: EdgeKind
        var from: Endpoint
        var to: Endpoint
        var change: DiagramChange?
    }

    /// The caption: the model's name and version(s).
    var title: String
    /// Whether the caption explains the colours.
    var hasLegend = false
    var nodes: [Node] = []
    var edges: [Edge] = []
}

// MARK: - A model

extension DiagramGraph {
    /// Every entity of `model` as a box, and its relationships and
    /// inheritance as edges.
    init(model: Model) {
        self.init(title: "\(model.name) version \(model.version)")
        let layout = ModelEdges(model)
        nodes = model.entities.map(Self.node)
        for relationship in layout.relationships {
            guard let edge = edge(for: relationship, in: layout, node: { layout.position[$0] })
            else { continue }
            edges.append(edge)
        }
        for (index, entity) in model.entities.enumerated() {
            guard let parent = entity.parent, let target = layout.position[parent] else { continue }
            edges.append(
                Edge(kind: .inheritance, from: Endpoint(node: index), to: Endpoint(node: target)))
        }
    }

    /// The box of `entity`: its own attributes and relationships (inherited
    /// ones are in its parent's box).
    static func node(_ entity: Entity) -> Node {
        Node(
            name: entity.name, isAbstract: entity.isAbstract,
            attributes: entity.attributes.map {
                Row(
                    name: $0.name, detail: $0.type.rawValue + ($0.isTransient ? " (transient)" : "")
                )
            },
            relationships: entity.relationships.map {
                Row(
                    name: $0.name,
                    detail: $0.isToMany
                        ? "[\($0.destination)]" + ($0.isOrdered ? " ordered" : "") : $0.destination)
            })
    }

    /// The edge of one relationship (or inverse pair), its ends placed by
    /// `node`, which gives the box of an entity of `layout`'s model; nil
    /// when a box is missing.
    func edge(
        for relationship: ModelEdges.Declared, in layout: ModelEdges, node: (String) -> Int?
    ) -> Edge? {
        guard let from = node(relationship.entity),
            let to = node(relationship.relationship.destination)
        else { return nil }
        let tail = Endpoint(node: from, port: relationship.index)
        guard let inverse = relationship.inverse else {
            return Edge(
                kind: .relationship(head: Cardinality(relationship.relationship), tail: nil),
                from: tail, to: Endpoint(node: to))
        }
        // The head ends at the inverse's row when the destination declares
        // it, else (inherited inverse) at the destination's box.
        let port =
            inverse.entity == relationship.relationship.destination ? inverse.index : nil
        return Edge(
            kind: .relationship(
                head: Cardinality(relationship.relationship),
                tail: Cardinality(inverse.relationship)),
            from: tail, to: Endpoint(node: to, port: port))
    }
}
