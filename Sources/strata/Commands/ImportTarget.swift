import Foundation
import Strata

/// The store an import writes to, with its model: opened, or created at the
/// newest version of `--schemas` when there is none yet.
struct ImportTarget {
    let store: Store
    let model: Model
    /// Whether this run created the store (removed again if the import fails).
    let isNew: Bool

    static func openOrCreate(_ url: URL, schemas: String?, dryRun: Bool) throws -> ImportTarget {
        let path = url.path
        if !FileManager.default.fileExists(atPath: path) {
            guard let schemas else {
                throw CommandFailure(
                    message: "\(path): no such store; give --schemas to create it")
            }
            let model = try SchemaSource.loadChain(schemas).newest
            let store = try Store.create(at: url, model: model)
            return ImportTarget(store: store, model: model, isNew: true)
        }
        let store = try Store.open(at: url, mode: dryRun ? .readOnly : .readWrite)
        do {
            let model = try StoreModelSource.model(of: store, schemas: schemas)
            return ImportTarget(store: store, model: model, isNew: false)
        } catch {
            try? store.close()  // Nothing was written.
            throw error
        }
    }

    /// Removes a store this run created, with its side files.
    static func remove(_ url: URL) {
        for suffix in ["", "-wal", "-shm", "-journal"] {
            try? FileManager.default.removeItem(atPath: url.path + suffix)
        }
    }
}
