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
/// Across a chain, what the composed matches leave unmatched is filled from
/// the direct matches of the first and last version (Core Data's inferred
/// mapping knows only those two): no element that Core Data's direct
/// migration keeps is lost to a break in between.
///
/// Property matches are kept per entity of the newer version and cover its
/// inherited properties too: for the objects of entity `E`, property `p` gets
/// its values from property `attributes[E][p]` of entity `entities[E]`.
/// Transient properties hold no data and never match.
package struct SchemaCorrespondence: Hashable, Sendable {
    /// Older entity name, by newer entity name.
    package var entities: [String: String] = [:]
    /// Older attribute name, by newer entity name then newer attribute name.
    package var attributes: [String: [String: String]] = [:]
    /// Older relationship name, by newer entity then newer relationship name.
    package var relationships: [String: [String: String]] = [:]
    /// The newer elements (`Entity` or `Entity.property`) paired by a rule
    /// beyond Core Data's (``RenamingPairing/Rule/isCoreData``), each with
    /// why: what a direct match keeps that Core Data's would not. Only
    /// direct matches (``init(from:to:)``) record them.
    package var beyondCoreData: [String: String] = [:]

    /// Matches the elements of `newer` with those of `older` directly, as
    /// Core Data's inferred mapping does, whatever versions lie between.
    package init(from older: Model, to newer: Model) {
        let entityPairs = RenamingPairing.pair(
            newer.entities.map(RenamingPairing.Element.init),
            with: older.entities.map(RenamingPairing.Element.init))
        entities = entityPairs.mapValues(\.older)
        note(entityPairs, of: nil, older: older)
        for entity in newer.entities {
            guard let former = entities[entity.name] else { continue }
            let attributePairs = RenamingPairing.pair(
                newer.allAttributes(of: entity.name).filter { !$0.isTransient }
                    .map(RenamingPairing.Element.init),
                with: older.allAttributes(of: former).filter { !$0.isTransient }
                    .map(RenamingPairing.Element.init))
            let relationshipPairs = RenamingPairing.pair(
                newer.allRelationships(of: entity.name).filter { !$0.isTransient }
                    .map(RenamingPairing.Element.init),
                with: older.allRelationships(of: former).filter { !$0.isTransient }
                    .map(RenamingPairing.Element.init))
            attributes[entity.name] = attributePairs.mapValues(\.older)
            relationships[entity.name] = relationshipPairs.mapValues(\.older)
            note(attributePairs, of: entity.name, older: older)
            note(relationshipPairs, of: entity.name, older: older)
        }
    }

    private mutating func note(
        _ pairs: [String: (older: String, rule: RenamingPairing.Rule)], of entity: String?,
        older: Model
    ) {
        for (newer, pair) in pairs {
            let name = entity.map { "\($0).\(newer)" } ?? newer
            switch pair.rule {
            case .renamedFrom, .renamingIdentifier: continue
            case .identifierNamesOlder:
                beyondCoreData[name] =
                    "its renaming identifier is the name of \(pair.older) of version "
                    + "\(older.version), which carries another identifier"
            case .sameName:
                beyondCoreData[name] =
                    "its renaming identifier names nothing of version \(older.version), so its "
                    + "name pairs it"
            }
        }
    }

    /// The matches from the first to the last of `versions`, oldest first,
    /// through every version between, filled from the direct matches of
    /// the first and last (``filled(from:)``).
    package init(through versions: [Model]) {
        let steps = zip(versions, versions.dropFirst()).map {
            SchemaCorrespondence(from: $0, to: $1)
        }
        self.init(composing: steps, from: versions.first, to: versions.last)
    }

    /// `steps` (each one version after the one before) composed, from
    /// version `first` to `last`, filled from their direct matches.
    package init(
        composing steps: some Collection<SchemaCorrespondence>, from first: Model?, to last: Model?
    ) {
        guard let first else { return }
        self = Self.identity(of: first)
        for step in steps { self = step.following(self) }
        if let last, steps.count > 1 {
            self = filled(from: SchemaCorrespondence(from: first, to: last))
        }
    }

    private init() {}

    /// Each element of `model` matched with itself.
    package static func identity(of model: Model) -> SchemaCorrespondence {
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
    package func following(_ earlier: SchemaCorrespondence) -> SchemaCorrespondence {
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

    /// These matches with what they leave unmatched taken from `direct`
    /// (matches between the same two versions): an entity or property
    /// matched by neither gets `direct`'s match, unless another already
    /// continues that older element.
    func filled(from direct: SchemaCorrespondence) -> SchemaCorrespondence {
        var filled = self
        var claimed = Set(entities.values)
        for (newer, older) in direct.entities.sorted(by: { $0.key < $1.key })
        where filled.entities[newer] == nil && claimed.insert(older).inserted {
            filled.entities[newer] = older
            filled.attributes[newer] = direct.attributes[newer] ?? [:]
            filled.relationships[newer] = direct.relationships[newer] ?? [:]
        }
        for (newer, older) in entities where direct.entities[newer] == older {
            filled.attributes[newer] = Self.fill(
                attributes[newer] ?? [:], from: direct.attributes[newer] ?? [:])
            filled.relationships[newer] = Self.fill(
                relationships[newer] ?? [:], from: direct.relationships[newer] ?? [:])
        }
        return filled
    }

    private static func fill(
        _ matches: [String: String], from direct: [String: String]
    ) -> [String: String] {
        var filled = matches
        var claimed = Set(matches.values)
        for (newer, older) in direct.sorted(by: { $0.key < $1.key })
        where filled[newer] == nil && claimed.insert(older).inserted {
            filled[newer] = older
        }
        return filled
    }

    /// The newer entity that continues the older entity `name`, if any.
    package func newerEntity(continuing name: String) -> String? {
        entities.filter { $0.value == name }.keys.sorted().first
    }
}
