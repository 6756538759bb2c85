import StrataSchema

/// A model drawn as Xcode's model editor draws it, as Graphviz DOT: entities
/// as boxes listing their attributes (name and type) and relationships
/// (name and destination, `[Destination]` for to-many), abstract entities'
/// names in italics; a relationship as an edge with one arrowhead for
/// to-one and two for to-many, an inverse pair as one edge with heads at
/// both ends, a relationship without an inverse as a one-way edge, and
/// inheritance as an edge with a hollow triangle pointing at the parent.
///
/// The diagram of a migration (``init(chain:from:to:)``) draws the later
/// version and colours what the move adds (green), removes (red, where it
/// was) and renames (amber, with the former name).
///
/// ```swift
/// let chain = try SchemaChain.load(directory: URL(fileURLWithPath: "Schemas/Recipes"))
/// let diagram = ModelDiagram(model: chain.newest)
/// try Graphviz.render(diagram.dot, as: .svg, to: URL(fileURLWithPath: "Recipes.svg"))
/// ```
public struct ModelDiagram: Hashable, Sendable {
    let graph: DiagramGraph

    /// The diagram of one model version.
    public init(model: Model) {
        graph = DiagramGraph(model: model)
    }

    /// The diagram of the move from version `from` to version `to` of
    /// `chain`: version `to`, coloured. Renames are followed through every
    /// version between, as a migration follows them.
    ///
    /// - Throws: ``DiagramError`` (``DiagramError/Kind/unknownVersion``)
    ///   when a version is not in the chain.
    public init(chain: SchemaChain, from: Int, to: Int) throws(DiagramError) {
        let known = chain.versions.map { String($0.version) }.joined(separator: ", ")
        var models: [Model] = []
        for version in [from, to] {
            guard let model = chain.model(version: version) else {
                throw DiagramError(
                    .unknownVersion,
                    message: "\(chain.name) has no version \(version) (versions: \(known))")
            }
            models.append(model)
        }
        guard from <= to else {
            throw DiagramError(
                .unknownVersion,
                message: "version \(from) comes after version \(to); a migration moves to a "
                    + "later version")
        }
        let between = chain.versions.filter { $0.version >= from && $0.version <= to }
        graph = DiagramGraph(
            from: models[0], to: models[1],
            correspondence: SchemaCorrespondence(through: between))
    }

    /// The Graphviz DOT source.
    public var dot: String { DOTWriter.dot(graph) }
}
