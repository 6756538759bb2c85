import Foundation

@testable import Strata

/// A fresh store for one of the bundled models (`Schemas/<name>`), in a
/// throwaway folder, with a context on it.
struct ContextFixture {
    let folder: TemporaryDirectory
    let store: Store
    let model: Model
    let context: Context

    static let schemas = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Schemas")

    init(_ name: String) throws {
        try self.init(
            model: try SchemaChain.load(
                directory: ContextFixture.schemas.appendingPathComponent(name)
            ).newest)
    }

    init(model: Model) throws {
        folder = try TemporaryDirectory()
        self.model = model
        store = try Store.create(at: folder.file("\(model.name).sqlite"), model: model)
        context = try Context(store: store, model: model)
    }

    /// A second context on a second connection to the same file.
    func secondContext() throws -> (Store, Context) {
        let other = try Store.open(at: store.url)
        return (other, try Context(store: other, model: model))
    }

    /// A context on a fresh connection, as after relaunching the app.
    func reopened() throws -> Context {
        try Context(store: try Store.open(at: store.url), model: model)
    }

    /// Row count of a table, read with plain SQL.
    func rows(_ table: String) throws -> Int64 {
        try store.connection.scalar("SELECT COUNT(*) FROM \(table)")?.int64Value ?? -1
    }
}
