import StrataSchema

/// Which rules create the objects a `"from"` link reaches.
///
/// A link path ends at source objects. When the relationship's destination
/// continues the path's entity, the objects keep their primary keys and the
/// link goes to the same keys. When a rule creates the destination's
/// objects from the path's entity instead (an entity renamed by a mapping,
/// as Core Data's `HistoryEntryToSRGHistoryEntry`), the link goes to the
/// object that rule created from each source object — Core Data's
/// `destinationInstancesForEntityMappingNamed:sourceInstances:`.
enum MappingLinkTargets {
    /// Whether destination entity `target` continues the tree `end` of
    /// the source belongs to, so a link's targets keep their keys.
    static func continues(
        _ target: String, reachedAt end: String, correspondence: SchemaCorrespondence,
        source: Model
    ) -> Bool {
        guard let former = correspondence.entities[target] else { return false }
        return source.rootEntity(of: former)?.name == source.rootEntity(of: end)?.name
    }

    /// The destination entities whose rules create objects of `target` (or
    /// of its subentities) from objects of the tree `end` belongs to.
    ///
    /// - Parameter creators: The source entity of each creating rule, by
    ///   destination entity.
    static func creators(
        of target: String, reachedAt end: String, creators: [String: String], source: Model,
        destination: Model
    ) -> [String] {
        let root = source.rootEntity(of: end)?.name
        let kinds = Set(destination.entityTree(rootedAt: target).map(\.name))
        return creators.filter { entity, from in
            kinds.contains(entity) && source.rootEntity(of: from)?.name == root
        }.keys.sorted()
    }
}
