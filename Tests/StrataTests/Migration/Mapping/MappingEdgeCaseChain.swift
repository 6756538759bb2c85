import Foundation
import Testing

@testable import Strata
@testable import StrataContext
@testable import StrataCore
@testable import StrataMigration
@testable import StrataSchema
@testable import StrataStore

/// A two-version chain written into a temporary folder, with a mapping file
/// between the versions, and a store at version 1 that ``Migrator`` moves to
/// version 2: the executor's copy stage, end to end.
final class MappingEdgeCaseChain {
    let folder: TemporaryDirectory
    let schemas: URL
    let storeURL: URL
    private var kept: [Store] = []

    /// Writes `1.json` and `2.json` of model `name` (each from its
    /// `entities` object) and `1-2.mapping.json` (`{"format", "from", "to"}`
    /// plus `mapping`, the rest of the file's members).
    init(_ name: String, v1: String, v2: String, mapping: String) throws {
        folder = try TemporaryDirectory()
        schemas = folder.file("Schemas/\(name)")
        storeURL = folder.file("\(name).sqlite")
        try FileManager.default.createDirectory(at: schemas, withIntermediateDirectories: true)
        for (version, entities) in [(1, v1), (2, v2)] {
            let text = """
                {"format": "strata-schema/1", "model": "\(name)", "version": \(version),
                 "versionIdentifier": "\(version).0", "entities": \(entities)}
                """
            try Data(text.utf8).write(to: schemas.appendingPathComponent("\(version).json"))
        }
        let file = """
            {"format": "strata-mapping/1", "from": 1, "to": 2, \(mapping)}
            """
        try Data(file.utf8).write(to: schemas.appendingPathComponent("1-2.mapping.json"))
    }

    var chain: SchemaChain { get throws { try SchemaChain.load(directory: schemas) } }

    /// The model of `version`.
    func model(_ version: Int) throws -> Model {
        try #require(try chain.model(version: version))
    }

    /// Creates the version-1 store and fills it with `populate`.
    func makeStore(_ populate: (Context) throws -> Void) throws {
        let model = try model(1)
        let store = try Store.create(at: storeURL, model: model)
        let context = try Context(store: store, model: model)
        try populate(context)
        try context.save()
        try store.close()
    }

    /// Runs the migration to version 2 without a backup.
    @discardableResult
    func migrate(acceptsLossySteps: Bool = false) throws -> MigrationReport {
        var options = MigrationOptions()
        options.keepsBackup = false
        options.acceptsLossySteps = acceptsLossySteps
        return try Migrator(storeAt: storeURL, schemas: schemas, options: options).run()
    }

    /// A context on the store at `version` (2 by default), after checking
    /// that the store is at that version, passes `integrity_check` and has
    /// sound relationships.
    func open(
        version: Int = 2, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> Context {
        let store = try Store.open(at: storeURL)
        kept.append(store)
        let model = try model(version)
        #expect(
            try store.matchingVersion(in: chain).version == version,
            sourceLocation: sourceLocation)
        #expect(try store.connection.integrityCheck() == ["ok"], sourceLocation: sourceLocation)
        let problems = try store.checkRelationships(model: model).map(\.description)
        #expect(problems == [], sourceLocation: sourceLocation)
        return try Context(store: store, model: model)
    }

    /// SHA-256 of the store's files ("absent" for a missing one), to prove
    /// that a failed run left them as they were.
    func fingerprint() throws -> [String] {
        try ["", "-wal", "-shm"].map { suffix in
            let path = storeURL.path + suffix
            guard FileManager.default.fileExists(atPath: path) else { return "absent" }
            return SHA256.hash(try Data(contentsOf: URL(fileURLWithPath: path))).map {
                String($0, radix: 16)
            }.joined()
        }
    }

    /// The store's file names (without -wal and -shm), to prove no work
    /// copy was left behind.
    func files() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.url.path).sorted()
            .filter { !$0.hasSuffix("-wal") && !$0.hasSuffix("-shm") }
    }

    /// The rows of a raw query, each column as text ("nil" for NULL), to
    /// check columns the object API hides (`Z_FOK_` positions, `Z_ENT`).
    func rows(_ context: Context, _ sql: String) throws -> [[String]] {
        var rows: [[String]] = []
        let statement = try context.store.connection.prepare(sql)
        try statement.forEachRow { row in
            rows.append(
                (0..<row.columnCount).map { row.isNull(at: $0) ? "nil" : row.text(at: $0) ?? "?" })
        }
        return rows
    }
}

extension ManagedObject {
    /// The values of attribute `attribute` of the objects of to-many `key`,
    /// in the relationship's order.
    func names(_ key: String, _ attribute: String = "name") throws -> [String?] {
        try objects(forKey: key).map { try $0.string(attribute) }
    }
}
