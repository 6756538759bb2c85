import Foundation
import Testing

@testable import Strata
@testable import StrataContext
@testable import StrataMigration
@testable import StrataSchema
@testable import StrataStore

/// Builds models from JSON text, stores populated at an older version, and
/// runs plan + mapping on a copy, as the executor does.
enum MappingTestSupport {
    static let schemas = ContextFixture.schemas

    /// A model from `strata-schema/1` text with the given entities.
    static func model(_ name: String, _ version: Int, _ entities: String) throws -> Model {
        try SchemaDecoder().decode(
            #"{"format": "strata-schema/1", "model": "\#(name)", "version": \#(version), "entities": \#(entities)}"#,
            file: "\(version).json")
    }

    /// A bundled model version.
    static func bundled(_ name: String, _ version: Int) throws -> Model {
        let chain = try SchemaChain.load(directory: schemas.appendingPathComponent(name))
        return try #require(chain.model(version: version))
    }

    /// A mapping from text between two models.
    static func mapping(_ text: String, from: Model, to: Model) throws -> MigrationMapping {
        try MigrationMapping(
            data: Data(text.utf8), file: "test.mapping.json", source: from, destination: to)
    }

    /// The issues of a mapping text that must not load.
    static func issues(_ text: String, from: Model, to: Model) -> [MappingIssue] {
        do {
            _ = try mapping(text, from: from, to: to)
            return []
        } catch let error as MappingError {
            return error.issues
        } catch {
            return [MappingIssue(file: "", path: "", message: "\(error)")]
        }
    }
}

/// A store created at the older version and filled, then migrated.
final class MappingFixture {
    let folder: TemporaryDirectory
    let source: Model
    let sourceURL: URL
    private var kept: [Store] = []

    init(_ source: Model, populate: (Context) throws -> Void) throws {
        folder = try TemporaryDirectory()
        self.source = source
        sourceURL = folder.file("old.sqlite")
        let store = try Store.create(at: sourceURL, model: source)
        let context = try Context(store: store, model: source)
        try populate(context)
        try context.save()
        try store.close()
    }

    /// Copies the store, runs the plan's SQL on the copy, applies `mapping`
    /// in one transaction, and returns a context on the result.
    func migrate(
        to destination: Model, with mapping: MigrationMapping?,
        progress: ((String, Int64) -> Void)? = nil
    ) throws -> Context {
        let copy = folder.file("new-\(destination.version)-\(UUID().uuidString).sqlite")
        for suffix in ["", "-wal", "-shm"]
        where FileManager.default.fileExists(atPath: sourceURL.path + suffix) {
            try FileManager.default.copyItem(
                atPath: sourceURL.path + suffix, toPath: copy.path + suffix)
        }
        let work = try Store.open(at: copy)
        let original = try Store.open(at: sourceURL, mode: .readOnly)
        try work.connection.inTransaction {
            for statement in MigrationPlan(from: source, to: destination).statements {
                try statement.execute(on: work.connection)
            }
            try mapping?.apply(
                source: original.connection, destination: work.connection, progress: progress)
        }
        try original.close()
        try work.close()
        let reopened = try Store.open(at: copy)
        kept.append(reopened)
        let problems = try reopened.connection.integrityCheck()
        #expect(problems == ["ok"])
        // The plan's SQL leaves the metadata at the source version.
        return try Context(unverified: reopened, model: destination)
    }
}

extension Context {
    /// Every object of `entity`, by primary key.
    func all(_ entity: String) throws -> [ManagedObject] {
        try findAll(entity).sorted { ($0.objectID.primaryKey ?? 0) < ($1.objectID.primaryKey ?? 0) }
    }
}
