import Foundation

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

    /// The entity's name.
    public var entity: String
    /// How it differs.
    public var kind: Kind

    /// `Note (hash differs)`, `Tag (only in the schema)`, …
    public var description: String {
        switch kind {
        case .onlyInSchema: "\(entity) (only in the schema)"
        case .onlyInStore: "\(entity) (only in the store)"
        case .hashDiffers: "\(entity) (hash differs)"
        }
    }
}

extension Store {
    /// The version of `chain` whose entity hashes equal the store's.
    ///
    /// - Throws: ``StoreError`` (`unknownVersion`) naming the nearest version
    ///   (the most entities with equal hashes; the newer one on a tie) and the
    ///   entities that differ from it.
    public func matchingVersion(in chain: SchemaChain) throws -> Model {
        try Store.matchingVersion(of: metadata.versionHashes, in: chain, path: path)
    }

    /// The version of `chain` whose hashes equal `hashes`; see
    /// ``matchingVersion(in:)``.
    public static func matchingVersion(
        of hashes: [String: Data], in chain: SchemaChain, path: String
    ) throws -> Model {
        var nearest: (model: Model, differences: [EntityHashDifference], matches: Int)?
        for model in chain.versions {
            let differences = Store.differences(between: hashes, and: model)
            if differences.isEmpty { return model }
            let matches = model.versionHashes.filter { hashes[$0.key] == Data($0.value) }.count
            if nearest == nil || matches >= nearest?.matches ?? 0 {
                nearest = (model, differences, matches)
            }
        }
        guard let nearest else {
            throw StoreError(
                .unknownVersion, path: path, message: "the schema chain has no versions")
        }
        let list = nearest.differences.map(\.description).joined(separator: ", ")
        throw StoreError(
            .unknownVersion, path: path,
            message: "matches no version of \(nearest.model.name); nearest is version "
                + "\(nearest.model.version), which differs in: \(list)")
    }

    /// The entities whose hashes differ between a store's `hashes` and `model`.
    public static func differences(
        between hashes: [String: Data], and model: Model
    ) -> [EntityHashDifference] {
        let expected = model.versionHashes
        var differences: [EntityHashDifference] = []
        for name in Set(expected.keys).union(hashes.keys).sorted() {
            switch (expected[name], hashes[name]) {
            case (.some, nil): differences.append(.init(entity: name, kind: .onlyInSchema))
            case (nil, .some): differences.append(.init(entity: name, kind: .onlyInStore))
            case let (mine?, theirs?) where Data(mine) != theirs:
                differences.append(.init(entity: name, kind: .hashDiffers))
            default: break
            }
        }
        return differences
    }
}
