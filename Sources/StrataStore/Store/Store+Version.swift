import Foundation
import StrataSchema

// MARK: - Telling the schema version of a store

/// How one entity of a store differs from one schema version.
public struct EntityHashDifference: Hashable, Sendable, CustomStringConvertible {
    /// The kinds of difference.
    public enum Kind: String, Sendable {
        /// The schema version has the entity; the store does not.
        case onlyInSchema
        /// The store has the entity; the schema version does not.
        case onlyInStore
        /// Both have it, with different version hashes.
        case hashDiffers
    }

    /// How one property differs, when the store's own model is known.
    public struct PropertyDifference: Hashable, Sendable, CustomStringConvertible {
        /// The property's name.
        public var property: String
        /// How it differs (``Kind/hashDiffers``: changed in a hashed way).
        public var kind: Kind

        /// `title only in the schema`, `url changed`, …
        public var description: String {
            switch kind {
            case .onlyInSchema: "\(property) only in the schema"
            case .onlyInStore: "\(property) only in the store"
            case .hashDiffers: "\(property) changed"
            }
        }
    }

    /// The entity's name.
    public var entity: String
    /// How it differs.
    public var kind: Kind
    /// For ``Kind/hashDiffers``, the properties that differ; empty when the
    /// store's model is unknown or only entity settings (parent, abstract,
    /// modifier, uniqueness) differ.
    public var properties: [PropertyDifference] = []

    /// `Note (hash differs: title only in the schema)`, `Tag (only in the schema)`, …
    public var description: String {
        switch kind {
        case .onlyInSchema: return "\(entity) (only in the schema)"
        case .onlyInStore: return "\(entity) (only in the store)"
        case .hashDiffers:
            if properties.isEmpty { return "\(entity) (hash differs)" }
            return
                "\(entity) (hash differs: \(properties.map(\.description).joined(separator: "; ")))"
        }
    }
}

extension Store {
    /// The version of `chain` whose entity hashes equal the store's; when
    /// several versions hash alike (nothing hashed changed between them),
    /// the newest of them, so a store is never reported at a version it has
    /// in fact passed, nor moved through empty steps.
    ///
    /// - Parameters:
    ///   - chain: The versions to compare with.
    ///   - storeModel: The model the store was written with, when known
    ///     (from its `Z_MODELCACHE`); it lets the error name the properties
    ///     that differ.
    /// - Throws: ``StoreError`` (`unknownVersion`) naming the nearest version
    ///   (``nearestVersion(to:in:storeModel:)``) and the entities that differ
    ///   from it.
    public func matchingVersion(in chain: SchemaChain, storeModel: Model? = nil) throws -> Model {
        // A store Strata wrote names its version: among versions hashing
        // alike, that one (a later one may add an index, which is not hashed).
        let alike = Store.matchingVersions(of: metadata.versionHashes, in: chain)
        if alike.count > 1, metadata.modelName == chain.name,
            let named = alike.first(where: { $0.version == metadata.modelVersion })
        {
            return named
        }
        return try Store.matchingVersion(
            of: metadata.versionHashes, in: chain, path: path, storeModel: storeModel)
    }

    /// Why `model` does not describe the store — `the store holds Diary
    /// version 3, the model is Diary version 1; their hashes differ in: …`
    /// — or nil when its version hashes are the store's. The store's
    /// version is named from its stored schema, else from what its metadata
    /// says.
    package func versionMismatch(with model: Model) -> String? {
        let differences = Store.differences(between: metadata.versionHashes, and: model)
        guard !differences.isEmpty else { return nil }
        let storeVersion: String
        if let stored = try? storedModel() {
            storeVersion = "\(stored.name) version \(stored.version)"
        } else if let name = metadata.modelName, let version = metadata.modelVersion {
            storeVersion = "\(name) version \(version)"
        } else {
            storeVersion = "a version it does not name"
        }
        let list = differences.map(\.description).joined(separator: ", ")
        return "the store holds \(storeVersion), the model is \(model.name) version "
            + "\(model.version); their hashes differ in: \(list)"
    }

    /// Every version of `chain` whose hashes equal `hashes`, oldest first:
    /// more than one when versions follow each other with no hashed change
    /// (only indexes, validation rules or defaults changed, say).
    public static func matchingVersions(of hashes: [String: Data], in chain: SchemaChain) -> [Model]
    {
        chain.versions.filter { Store.differences(between: hashes, and: $0).isEmpty }
    }

    /// The version of `chain` whose hashes equal `hashes` — the newest of
    /// them when several versions hash alike; see ``matchingVersion(in:)``.
    public static func matchingVersion(
        of hashes: [String: Data], in chain: SchemaChain, path: String, storeModel: Model? = nil
    ) throws -> Model {
        let alike = matchingVersions(of: hashes, in: chain)
        if let newest = alike.last { return newest }
        guard let nearest = nearestVersion(to: hashes, in: chain, storeModel: storeModel) else {
            throw StoreError(
                .unknownVersion, path: path, message: "the schema chain has no versions")
        }
        let list = nearest.differences.map(\.description).joined(separator: ", ")
        throw StoreError(
            .unknownVersion, path: path,
            message: "matches no version of \(nearest.model.name); nearest is version "
                + "\(nearest.model.version), which differs in: \(list)")
    }

    /// The version of `chain` nearest to a store's `hashes`: the fewest
    /// differing properties when the store's own model is known (an entity
    /// only on one side counts its properties), else the fewest differing
    /// entities; the newer version on a tie.
    ///
    /// - Returns: The version, its differences and their count, or nil for
    ///   an empty chain.
    public static func nearestVersion(
        to hashes: [String: Data], in chain: SchemaChain, storeModel: Model? = nil
    ) -> (model: Model, differences: [EntityHashDifference], distance: Int)? {
        var nearest: (model: Model, differences: [EntityHashDifference], distance: Int)?
        for model in chain.versions {
            let differences = Store.differences(between: hashes, and: model, storeModel: storeModel)
            let distance = differences.reduce(0) { total, difference in
                total + Self.distance(of: difference, schema: model, store: storeModel)
            }
            if nearest == nil || distance <= nearest?.distance ?? 0 {
                nearest = (model, differences, distance)
            }
        }
        return nearest
    }

    /// How many properties one entity's difference stands for (1 when they
    /// are not known).
    private static func distance(
        of difference: EntityHashDifference, schema: Model, store: Model?
    ) -> Int {
        guard let store else { return 1 }
        switch difference.kind {
        case .hashDiffers: return max(1, difference.properties.count)
        case .onlyInSchema:
            return 1 + schema.propertyVersionHashes(ofEntity: difference.entity).count
        case .onlyInStore: return 1 + store.propertyVersionHashes(ofEntity: difference.entity).count
        }
    }

    /// The entities whose hashes differ between a store's `hashes` and
    /// `model`, with the differing properties when `storeModel` is given.
    public static func differences(
        between hashes: [String: Data], and model: Model, storeModel: Model? = nil
    ) -> [EntityHashDifference] {
        let expected = model.versionHashes
        var differences: [EntityHashDifference] = []
        for name in Set(expected.keys).union(hashes.keys).sorted() {
            switch (expected[name], hashes[name]) {
            case (.some, nil): differences.append(.init(entity: name, kind: .onlyInSchema))
            case (nil, .some): differences.append(.init(entity: name, kind: .onlyInStore))
            case let (mine?, theirs?) where Data(mine) != theirs:
                var difference = EntityHashDifference(entity: name, kind: .hashDiffers)
                if let storeModel, storeModel.entity(named: name) != nil {
                    difference.properties = propertyDifferences(
                        of: name, schema: model, store: storeModel)
                }
                differences.append(difference)
            default: break
            }
        }
        return differences
    }

    /// The properties of `entity` whose version hashes differ between the
    /// schema version and the store's own model.
    private static func propertyDifferences(
        of entity: String, schema: Model, store: Model
    ) -> [EntityHashDifference.PropertyDifference] {
        let expected = schema.propertyVersionHashes(ofEntity: entity)
        let actual = store.propertyVersionHashes(ofEntity: entity)
        return Set(expected.keys).union(actual.keys).sorted().compactMap { name in
            switch (expected[name], actual[name]) {
            case (.some, nil): return .init(property: name, kind: .onlyInSchema)
            case (nil, .some): return .init(property: name, kind: .onlyInStore)
            case let (mine?, theirs?) where mine != theirs:
                return .init(property: name, kind: .hashDiffers)
            default: return nil
            }
        }
    }
}
