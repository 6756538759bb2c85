import Foundation
import StrataCore
import StrataSchema
import StrataStore

/// Where a migration starts: the chain's version whose hashes the store
/// carries, or — when none does — the store's own model from its model
/// cache, standing in for the published version it came from.
///
/// Apps edit a model in place without adding a version; their users' stores
/// then match no published version, but Core Data keeps the model a store
/// was saved with in `Z_MODELCACHE`. When that model's hashes are the
/// store's, it becomes the source: it takes the place of the nearest
/// published version `N` (of the version before `N` when `N` is the
/// target), and the steps from it are planned as for any pair, with the
/// mapping file that starts at that place applying when it fits the
/// store's model.
struct MigrationSource {
    /// The version the store is at (the store's own model, numbered as the
    /// place it takes, when it comes from the cache).
    let current: Model
    /// The chain the run follows: the caller's, or from the store's own
    /// model on.
    let chain: SchemaChain
    /// The mapping files the run may use, by the version they start from.
    let mappingFiles: [Int: [any MigrationMappingApplying]]
    /// What needs saying about how the version was told.
    let notes: [String]

    /// The source of the store at `path` for `chain`.
    ///
    /// - Throws: ``MigrationError`` (`unknownStoreVersion`) when no version
    ///   matches and the store has no usable model cache (one that does not
    ///   decode, is not a valid model or does not give the store's hashes:
    ///   the message says which).
    init(
        store: Store, chain: SchemaChain, mappingFiles: [Int: [any MigrationMappingApplying]],
        target: Int?, path: String
    ) throws {
        let hashes = store.metadata.versionHashes
        let alike = Store.matchingVersions(of: hashes, in: chain)
        if !alike.isEmpty {
            let model = try store.matchingVersion(in: chain)
            self.current = model
            self.chain = chain
            self.mappingFiles = mappingFiles
            if alike.count > 1 {
                let versions = alike.map { String($0.version) }
                let why =
                    model.version == alike.last?.version
                    ? "the newest of them" : "the version the store names"
                notes = [
                    "versions \(versions.joined(separator: ", ")) of \(chain.name) hash alike "
                        + "(nothing Core Data hashes changed between them); the store is taken "
                        + "as version \(model.version), \(why)"
                ]
            } else {
                notes = []
            }
            return
        }
        let cached = try Self.cachedModel(of: store, chain: chain, path: path)
        guard
            let nearest = Store.nearestVersion(to: hashes, in: chain, storeModel: cached)
        else {
            throw MigrationError(.unknownStoreVersion, message: "\(path): the chain is empty")
        }
        let target = target ?? chain.newest.version
        // The store's model stands where the nearest version stands, so the
        // steps from it lead to the next published version; before it when
        // the nearest version is the target itself.
        let place =
            nearest.model.version < target
            ? nearest.model.version
            : (chain.versions.last(where: { $0.version < nearest.model.version })?.version
                ?? nearest.model.version - 1)
        var source = cached
        source.version = place
        guard nearest.model.version <= target else {
            throw MigrationError(
                .downgrade,
                message: "\(path) holds its own model, nearest to version "
                    + "\(nearest.model.version); moving it down to \(target) is not supported "
                    + "(Strata only upgrades)")
        }
        let versions = [source] + chain.versions.filter { $0.version > place }
        self.current = source
        self.chain = SchemaChain(versions: versions)
        let differing = nearest.differences.map(\.description).joined(separator: ", ")
        var notes = [
            "\(path) matches no version of \(chain.name); the source is the store's own model "
                + "(Z_MODELCACHE), nearest published version \(nearest.model.version), differing "
                + "in: \(differing.isEmpty ? "nothing hashed" : differing); it stands as "
                + "version \(place) of the plan"
        ]
        var fitted = mappingFiles.filter { $0.key > place }
        for mapping in mappingFiles[place] ?? [] {
            guard let next = self.chain.versions.dropFirst().first else { break }
            if let file = mapping as? MigrationMapping {
                do {
                    fitted[place, default: []].append(
                        try MigrationMapping.load(
                            file: URL(fileURLWithPath: file.file), source: source,
                            destination: self.chain.model(version: file.destination.version)
                                ?? next))
                    notes.append(
                        "\(file.file) applies from the store's own model (checked against it)")
                } catch {
                    notes.append(
                        "\(file.file) does not fit the store's own model and is left out of the "
                            + "first stage: \(error)")
                }
            } else {
                notes.append(
                    "\(mapping.origin) was written for version \(place) and is left out of the "
                        + "first stage")
            }
        }
        self.mappingFiles = fitted
        self.notes = notes
    }

    /// The store's own model from its cache, checked as untrusted input:
    /// it decodes within the cache's size limit, is a valid model and gives
    /// exactly the store's hashes.
    private static func cachedModel(
        of store: Store, chain: SchemaChain, path: String
    ) throws -> Model {
        let hashes = store.metadata.versionHashes
        // Only to name the differing properties: Strata's stored schema.
        let known = try? store.storedModel()
        func refuse(_ why: String, storeModel: Model? = nil) -> MigrationError {
            let nearest = Store.nearestVersion(
                to: hashes, in: chain, storeModel: storeModel ?? known)
            let list = nearest?.differences.map(\.description).joined(separator: ", ") ?? ""
            return MigrationError(
                .unknownStoreVersion,
                message: "\(path) matches no version of \(chain.name)"
                    + (nearest.map {
                        "; nearest is version \($0.model.version), which differs in: \(list)"
                    }
                        ?? "")
                    + "; \(why); nothing was changed")
        }
        let content: Data?
        do {
            content = try ModelCache.read(from: store.connection)
        } catch let error as SQLiteError {
            throw error
        } catch {
            throw refuse("Z_MODELCACHE.Z_CONTENT is unreadable (\(error))")
        }
        guard let content else {
            throw refuse("the store has no model cache (Z_MODELCACHE) to migrate from")
        }
        let model: Model
        do {
            model = try ModelCache.decode(content, modelName: chain.name)
        } catch {
            throw refuse("its model cache (Z_MODELCACHE.Z_CONTENT) does not decode: \(error)")
        }
        let issues = SchemaValidator().validate(model, file: "Z_MODELCACHE")
        if let issue = issues.first {
            throw refuse(
                "its model cache (Z_MODELCACHE.Z_CONTENT) is not a usable model: \(issue)"
                    + (issues.count > 1 ? " (and \(issues.count - 1) more)" : ""))
        }
        let differences = Store.differences(between: hashes, and: model)
        guard differences.isEmpty else {
            throw refuse(
                "its model cache (Z_MODELCACHE.Z_CONTENT) does not match its hashes "
                    + "(Z_METADATA NSStoreModelVersionHashes) in: "
                    + differences.map(\.description).joined(separator: ", "))
        }
        return model
    }
}
