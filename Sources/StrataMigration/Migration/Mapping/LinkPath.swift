import StrataQuery
import StrataSchema

/// A path of relationships from a source object, as `"from"` in a
/// relationship rule names it: `folder`, `notebook.owner`, `authors`, or
/// `self` for the object itself.
struct LinkPath: Hashable, Sendable {
    /// One relationship crossed, with the entity it is declared on (or
    /// inherited by).
    struct Hop: Hashable, Sendable {
        var owner: String
        var relationship: Relationship
    }

    /// The relationships crossed, in order; empty for `self`.
    var hops: [Hop]
    /// The entity the path ends at.
    var end: String

    /// Whether the path can reach several objects (it crosses a to-many).
    var isToMany: Bool { hops.contains { $0.relationship.isToMany } }

    /// The path `text` from objects of `entity` in `model`.
    ///
    /// - Throws: ``ExpressionError`` at the column of the component that is
    ///   not a relationship.
    package static func resolve(
        _ text: String, from entity: String, in model: Model
    ) throws(ExpressionError) -> LinkPath {
        if text == "self" { return LinkPath(hops: [], end: entity) }
        var hops: [Hop] = []
        var current = entity
        var column = 1
        for name in text.split(separator: ".", omittingEmptySubsequences: false).map(String.init) {
            guard
                let relationship = model.allRelationships(of: current).first(where: {
                    $0.name == name && !$0.isTransient
                })
            else {
                let isAttribute = model.allAttributes(of: current).contains { $0.name == name }
                let known = model.allRelationships(of: current).map(\.name).sorted()
                throw ExpressionError(
                    column: column,
                    message: name.isEmpty
                        ? "expected a relationship name"
                        : "\(current).\(name) is "
                            + (isAttribute ? "an attribute" : "not a property")
                            + "; a link path names relationships (or is self)"
                            + (known.isEmpty
                                ? ""
                                : "; relationships of \(current): "
                                    + known.joined(separator: ", ")))
            }
            hops.append(Hop(owner: current, relationship: relationship))
            current = relationship.destination
            column += name.count + 1
        }
        return LinkPath(hops: hops, end: current)
    }
}
