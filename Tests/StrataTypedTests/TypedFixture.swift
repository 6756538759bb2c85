import Foundation
import Strata
import Testing

/// A fresh store of a model version in a temporary folder, with a context.
final class TypedFixture {
    let folder: URL
    let store: Store
    let model: Model
    let context: Context

    /// The package root, found from this file's path.
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    /// This target's folder.
    static let testsFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()

    /// Version `version` of the schema folder at `path` (relative to the
    /// package root).
    static func model(_ path: String, version: Int? = nil) throws -> Model {
        let chain = try SchemaChain.load(directory: packageRoot.appendingPathComponent(path))
        guard let version else { return chain.newest }
        return try #require(chain.model(version: version))
    }

    /// The AllTypes test model.
    static func allTypes() throws -> Model {
        try model("Tests/StrataTypedTests/Schemas/AllTypes")
    }

    init(model: Model) throws {
        folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("strata-typed-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        self.model = model
        store = try Store.create(
            at: folder.appendingPathComponent("\(model.name).sqlite"), model: model)
        context = try Context(store: store, model: model)
    }

    /// A context on a fresh connection, as after relaunching the app.
    func reopened() throws -> Context {
        try Context(store: try Store.open(at: store.url), model: model)
    }

    deinit {
        try? FileManager.default.removeItem(at: folder)  // Best effort; the OS cleans tmp too.
    }
}
