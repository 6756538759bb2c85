import Foundation
import Strata

/// `strata create STORE --schemas DIR [--version N]`: a new, empty store.
struct CreateCommand: Command {
    static let name = "create"
    static let abstract = "Create an empty Core Data store for a schema version."
    static let usage = """
        USAGE: strata create <store> --schemas <dir> [--version <n>]

        ARGUMENTS:
          <store>            The store file to create; it must not exist.

        OPTIONS:
          --schemas <dir>    The model folder, such as Schemas/Diary.
          --version <n>      The schema version (default: the newest).
        """

    var store: String
    var schemas: String
    var version: Int?

    static func parse(_ arguments: inout ArgumentList) throws -> Self {
        guard let schemas = try arguments.option("--schemas") else {
            throw UsageError("missing '--schemas <dir>'", command: Self.self)
        }
        let version = try arguments.integerOption("--version")
        let store = try arguments.storePath("<store>")
        try arguments.finish()
        return Self(store: store, schemas: schemas, version: version)
    }

    func validate() throws {
        if let version, version < 1 {
            throw UsageError("'--version' must be 1 or more", command: Self.self)
        }
    }

    func run() throws {
        let model = try SchemaSource.loadModel(schemas, version: version)
        try StoreActivity.run(store, "create the store") {
            let created = try Store.create(at: URL(fileURLWithPath: store), model: model)
            try created.close()
        }
        Terminal.output(
            "Created \(store): \(model.name) version \(model.version), \(model.entities.count) entities"
        )
    }
}
