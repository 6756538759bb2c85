/// Which entity and property of an older model version each entity and
/// property of a newer one continues, following `renamedFrom` and Core
/// Data's renaming identifiers.
///
/// Between two adjacent versions an element matches the older element named
/// by its `renamedFrom` when there is one, else the older element with the
/// same renaming identifier (which defaults to the name), as Core Data's
/// inferred mapping pairs them (``RenamingPairing``); each older element is
/// matched at most once. Across a chain the matches of every pair of
/// adjacent versions are composed, so a property renamed in version 2 and
/// again in version 3 still finds its version 1 values.
///
/// Property matches are kept per entity of the newer version and cover its
/// inherited properties too: for the objects of entity `E`, property `p` gets
/// its values from property `attributes[E][p]` of entity `entities[E]`.
/// Transient properties hold no data and never match.
struct SchemaCorrespondence: Hashable, Sendable {
    /// Older entity name, by newer entity name.
    var entities: [String: String] = [:]
    /// Older attribute name, by newer entity name then newer attribute name.
    var attributes: [String: [String: String]] = [:]
    /// Older relationship name, by newer entity then newer relationship name.
    var relationships: [String: [String: String]] = [:]

    /// Matches the elements of `newer` with those of `older`, one version
    /// apart.
    init(from older: Model, to newer: Model) {
        entities = Self.match(
            newer.entities.map(RenamingPairing.Element.init),
            among: older.entities.map(RenamingPairing.Element.init))
        for entity in newer.entities {
            guard let former = entities[entity.name] else { continue }
            attributes[entity.name] = Self.match(
                newer.allAttributes(of: entity.name).filter { !$0.isTransient }
                    .map(RenamingPairing.Element.init),
                among: older.allAttributes(of: former).filter { !$0.isTransient }
                    .map(RenamingPairing.Element.init))
            relationships[entity.name] = Self.match(
                newer.allRelationships(of: entity.name).filter { !$0.isTransient }
                    .map(RenamingPairing.Element.init),
                among: older.allRelationships(of: former).filter { !$0.isTransient }
                    .map(RenamingPairing.Element.init))
        }
    }

    /// The matches from the first to the last of `versions`, oldest first,
    /// through every version between.
    init(through versions: [Model]) {
        guard let first = versions.first else { return }
        self = Self.identity(of: first)
        for (older, newer) in zip(versions, versions.dropFirst()) {
            self = SchemaCorrespondence(from: older, to: newer).following(self)
        }
    }

    private init() {}

    /// Each element of `model` matched with itself.
    static func identity(of model: Model) -> SchemaCorrespondence {
        var identity = SchemaCorrespondence()
        for entity in model.entities {
            identity.entities[entity.name] = entity.name
            identity.attributes[entity.name] = Dictionary(
                model.allAttributes(of: entity.name)
                    .filter { !$0.isTransient }.map { ($0.name, $0.name) },
                uniquingKeysWith: { first, _ in first })
            identity.relationships[entity.name] = Dictionary(
                model.allRelationships(of: entity.name)
                    .filter { !$0.isTransient }.map { ($0.name, $0.name) },
                uniquingKeysWith: { first, _ in first })
        }
        return identity
    }

    /// These matches (middle → newest) after `earlier` ones (oldest →
    /// middle): oldest → newest.
    func following(_ earlier: SchemaCorrespondence) -> SchemaCorrespondence {
        var composed = SchemaCorrespondence()
        for (newest, middle) in entities {
            guard let oldest = earlier.entities[middle] else { continue }
            composed.entities[newest] = oldest
            composed.attributes[newest] = (attributes[newest] ?? [:]).compactMapValues {
                earlier.attributes[middle]?[$0]
            }
            composed.relationships[newest] = (relationships[newest] ?? [:]).compactMapValues {
                earlier.relationships[middle]?[$0]
            }
        }
        return composed
    }

    /// The newer entity that continues the older entity `name`, if any.
    func newerEntity(continuing name: String) -> String? {
        entities.filter { $0.value == name }.keys.sorted().first
    }

    /// `renamedFrom` matches first, then equal renaming identifiers, each
    /// older element once.
    private static func match(
        _ newer: [RenamingPairing.Element], among older: [RenamingPairing.Element]
    ) -> [String: String] {
        RenamingPairing.pair(newer, with: older).mapValues(\.older)
    }
}
