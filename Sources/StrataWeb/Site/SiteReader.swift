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

    /// Opens the store at `url` read-only (immutable, or a private snapshot
    /// of a WAL store: see ``Store/Mode/readOnly``) with the model from
    /// `chain` that matches it, or else the one the store names.
    init(storeAt url: URL, chain: SchemaChain?) throws {
        store = try Store.open(at: url, mode: .readOnly)
        let resolution = try store.resolveModel(schemas: chain)
        model = try resolution.requiredModel()
        modelSource = resolution.source
        context = try Context(store: store, model: model)
    }

    /// The entities a fetch of `name` includes: itself and its
    /// subentities, depth first.
    func tree(of name: String) -> [Entity] {
        guard let entity = model.entity(named: name) else { return [] }
        return [entity]
            + model.entities.filter { $0.parent == name }.flatMap { tree(of: $0.name) }
    }

    /// Whether `name` has subentities.
    func hasSubentities(_ name: String) -> Bool {
        model.entities.contains { $0.parent == name }
    }

    /// The attributes an object of `entity` stores (transient ones left out).
    func storedAttributes(of entity: String) -> [Attribute] {
        model.allAttributes(of: entity).filter { !$0.isTransient }
    }

    /// The relationships an object of `entity` stores.
    func storedRelationships(of entity: String) -> [Relationship] {
        model.allRelationships(of: entity).filter { !$0.isTransient }
    }

    /// The stored attributes of `entity` as pages show them: the one links
    /// are labelled by first (``labelAttribute(of:)``), the rest in the
    /// model's order.
    func shownAttributes(of entity: String) -> [Attribute] {
        var attributes = storedAttributes(of: entity)
        if let label = labelAttribute(of: entity),
            let index = attributes.firstIndex(where: { $0.name == label.name })
        {
            attributes.insert(attributes.remove(at: index), at: 0)
        }
        return attributes
    }

    /// The attribute a link to an object of `entity` shows: the first of
    /// `title`, `name`, `displayName` or `label`, else the first text one.
    func labelAttribute(of entity: String) -> Attribute? {
        let texts = storedAttributes(of: entity).filter { $0.type == .string }
        return texts.first { ["title", "name", "displayName", "label"].contains($0.name) }
            ?? texts.first
    }

    deinit { try? store.close() }  // Read-only: nothing to lose.
}
