import Foundation
import Strata

/// The model of an opened store: the version of `--schemas` whose hashes
/// match it, or else the model Core Data cached in the store.
enum StoreModel {
    static func resolve(_ store: Store, schemas: String?) throws -> Model {
        let cached = try? ModelCache.read(from: store.connection).flatMap {
            try ModelCache.decode(
                $0, modelName: store.metadata.modelName ?? store.url.deletingPathExtension().lastPathComponent)
        }
        if let schemas {
            return try store.matchingVersion(in: SchemaSource.loadChain(schemas), storeModel: cached)
        }
        guard let cached else {
            throw CommandFailure(
                message: "\(store.url.relativePath): the store names no model it can be read with; give --schemas")
        }
        return cached
    }
}
