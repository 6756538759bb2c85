import Foundation
import StrataContext
import StrataSchema
import StrataStore

/// One read-only connection to the store, with its model and a context:
/// what a page is rendered from. Used by one request at a time.
final class SiteReader {
    let store: Store
    let model: Model
    let context: Context
    /// Where the model came from (the schemas given, the schema stored in
    /// the store, its model cache).
    let modelSource: StoreInfo.ModelSource
    /// What the pages need of each entity (shared by a site's readers).
    let entities: SiteEntities

    /// Opens the store at `url` read-only (immutable, or a private snapshot
    /// of a WAL store: see ``Store/Mode/readOnly``) with the model from
    /// `chain` that matches it, or else the one the store names.
    /// `entities` is the first reader's, for the others.
    init(storeAt url: URL, chain: SchemaChain?, entities: SiteEntities? = nil) throws {
        store = try Store.open(at: url, mode: .readOnly)
        let resolution = try store.resolveModel(schemas: chain)
        model = try resolution.requiredModel()
        modelSource = resolution.source
        context = try Context(store: store, model: model)
        self.entities = entities ?? SiteEntities(model: model)
    }

    deinit { try? store.close() }  // Read-only: nothing to lose.
}
