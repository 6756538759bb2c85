import Foundation
import Strata

/// The model a command uses for a store: the version of `--schemas` that
/// matches it, or else the model the store names (its stored schema, then
/// Core Data's model cache); see ``Store/resolveModel(schemas:)``.
enum StoreModelSource {
    /// The hint every "no model" error ends with.
    static let hint = "give --schemas DIR"

    /// The resolution for `store`, with the sources it passed over printed
    /// as warnings on stderr.
    ///
    /// - Throws: when `schemas` does not load or matches no version of the
    ///   store (an error, never a guess).
    static func resolve(_ store: Store, schemas: String?) throws -> StoreModelResolution {
        let chain = try schemas.map(SchemaSource.loadChain)
        let resolution = try store.resolveModel(schemas: chain)
        if let chain, let model = resolution.model {
            // Versions with no hashed change between them all match.
            let alike = Store.matchingVersions(of: store.metadata.versionHashes, in: chain)
            if alike.count > 1 {
                Terminal.error(
                    "note: versions \(alike.map { String($0.version) }.joined(separator: ", ")) of "
                        + "\(chain.name) hash alike (nothing Core Data hashes changed between "
                        + "them); the store is taken as version \(model.version)")
            }
        }
        if resolution.model != nil {
            for problem in resolution.problems {
                Terminal.error("warning: \(problem); ignoring it")
            }
        }
        return resolution
    }

    /// The model for `store`, or an error that says how to name one.
    static func model(of store: Store, schemas: String?) throws -> Model {
        let resolution = try resolve(store, schemas: schemas)
        do {
            return try resolution.requiredModel()
        } catch {
            throw CommandFailure(message: "\(error); \(hint)")
        }
    }
}
