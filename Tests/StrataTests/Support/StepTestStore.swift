import Foundation

@testable import Strata
@testable import StrataContext
@testable import StrataMigration
@testable import StrataSchema
@testable import StrataStore

/// A store file in a throwaway folder for the migration step tests: created
/// at one version of a chain and filled through a ``Context``, migrated with
/// ``MigrationTestRunner``, then read back object by object.
final class StepTestStore {
    /// The versions the store moves through.
    let chain: SchemaChain
    /// The store file.
    let url: URL
    private let folder: TemporaryDirectory

    /// Creates the store at `version` of `chain` and saves what `fill`
    /// inserts.
    init(chain: SchemaChain, version: Int, fill: (Context) throws -> Void) throws {
        self.chain = chain
        folder = try TemporaryDirectory()
        url = folder.file("Steps.sqlite")
        let store = try Store.create(at: url, model: try Self.model(version, of: chain))
        let context = try Context(store: store, model: try Self.model(version, of: chain))
        try fill(context)
        try context.save()
        try store.close()
    }

    /// Migrates the store from version `from` to version `to`.
    func migrate(from: Int, to: Int) throws {
        try MigrationTestRunner.migrate(storeAt: url, chain: chain, from: from, to: to)
    }

    /// The plan's steps as `label kind names` lines.
    func summary(from: Int, to: Int) throws -> [String] {
        try MigrationPlan(chain: chain, from: from, to: to).summary
    }

    /// Runs `body` with a context on the store as `version`, then closes
    /// the store.
    func withContext<T>(as version: Int, _ body: (Context) throws -> T) throws -> T {
        let store = try Store.open(at: url)
        defer { try? store.close() }  // Saves are done by now; nothing to lose.
        return try body(Context(store: store, model: try Self.model(version, of: chain)))
    }

    /// Every object of `entity` (subentities included) as a line of
    /// ``StepTestStore/describe(_:)``, by primary key, read as `version`.
    func rows(_ entity: String, as version: Int) throws -> [String] {
        try withContext(as: version) { context in
            try context.findAll(entity).map(Self.describe)
        }
    }

    /// What is wrong with the store as a store of `version`: `PRAGMA
    /// integrity_check` not ok, relationship problems, metadata hashes other
    /// than the version's, and tables, columns, indexes or `Z_PRIMARYKEY`
    /// rows other than those of a new store of that version. Empty for a
    /// sound store.
    func problems(as version: Int) throws -> [String] {
        let model = try Self.model(version, of: chain)
        let store = try Store.open(at: url)
        defer { try? store.close() }  // Reading only.
        var problems: [String] = []
        let integrity = try store.connection.integrityCheck()
        if integrity != ["ok"] { problems.append("integrity_check: \(integrity)") }
        problems += try store.checkRelationships(model: model).map { "relationships: \($0)" }
        if store.metadata.versionHashes != model.versionHashes.mapValues({ Data($0) }) {
            problems.append("metadata hashes are not those of version \(version)")
        }
        if store.metadata.modelVersion != version {
            problems.append("metadata says version \(store.metadata.modelVersion ?? 0)")
        }
        let reference = try TemporaryDirectory()
        let fresh = try Store.create(at: reference.file("Fresh.sqlite"), model: model)
        defer { try? fresh.close() }  // A scratch store.
        let (have, want) = (try Self.shape(of: store), try Self.shape(of: fresh))
        for key in Set(have.keys).union(want.keys).sorted() where have[key] != want[key] {
            problems.append("\(key): \(have[key] ?? []) instead of \(want[key] ?? [])")
        }
        return problems
    }

    /// The names of the indexes on `table`, sorted.
    func indexes(on table: String) throws -> [String] {
        let store = try Store.open(at: url)
        defer { try? store.close() }  // Reading only.
        var names: [String] = []
        let statement = try store.connection.prepare(
            "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = ?"
                + " AND name NOT LIKE 'sqlite_%' ORDER BY name")
        try statement.bind([.text(table)])
        try statement.forEachRow { names.append($0.text(at: 0) ?? "") }
        return names
    }

    // MARK: - Describing objects

    /// One object as a line: `Entity/pN`, then every stored attribute and
    /// relationship of its entity by name, `nil` for no value; to-many
    /// destinations in their stored order when ordered, else by key.
    ///
    /// `Book/p2 pages=nil title="Emma" author=Author/p1 tags=[Tag/p1, Tag/p3]`
    static func describe(_ object: ManagedObject) throws -> String {
        guard let model = object.context?.model else { return "\(object.objectID) (no context)" }
        var parts = [object.objectID.description]
        let attributes = model.allAttributes(of: object.entityName)
        for attribute in attributes.sorted(by: { $0.name < $1.name }) where !attribute.isTransient {
            let value = try object.value(forKey: attribute.name)
            parts.append("\(attribute.name)=\(value.map(describe) ?? "nil")")
        }
        for relationship in model.allRelationships(of: object.entityName)
            .sorted(by: { $0.name < $1.name }) where !relationship.isTransient
        {
            let text: String
            if relationship.isToMany {
                var ids = try object.objectIDs(forKey: relationship.name)
                if !relationship.isOrdered {
                    ids.sort { ($0.entityName, $0.key) < ($1.entityName, $1.key) }
                }
                text = "[" + ids.map(\.description).joined(separator: ", ") + "]"
            } else {
                text = try object.object(forKey: relationship.name)?.objectID.description ?? "nil"
            }
            parts.append("\(relationship.name)=\(text)")
        }
        return parts.joined(separator: " ")
    }

    /// A value as the object lines show it:
    /// strings quoted, dates after `@`, bytes in hex.
    static func describe(_ value: AttributeValue) -> String {
        switch value {
        case .integer(let number): "\(number)"
        case .real(let number): "\(number)"
        case .string(let text): "\"\(text)\""
        case .boolean(let flag): "\(flag)"
        case .date(let seconds): "@\(seconds)"
        case .data(let bytes): "0x" + bytes.map { String(format: "%02x", $0) }.joined()
        case .uuid(let uuid): uuid.uuidString
        }
    }

    // MARK: - Helpers

    /// Version `version` of `chain`, or an error naming it.
    static func model(_ version: Int, of chain: SchemaChain) throws -> Model {
        guard let model = chain.model(version: version) else {
            throw MigrationError(.unknownVersion, message: "no version \(version) in the chain")
        }
        return model
    }

    /// Every table as its sorted `COLUMN TYPE` list, every index as its SQL,
    /// and the `Z_PRIMARYKEY` rows without `Z_MAX`, keyed by name.
    private static func shape(of store: Store) throws -> [String: [String]] {
        var shape: [String: [String]] = [:]
        let connection = store.connection
        try connection.prepare(
            "SELECT type, name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'"
                + " AND name != 'Z_MODELCACHE'"
        ).forEachRow { row in
            let (kind, name) = (row.text(at: 0) ?? "", row.text(at: 1) ?? "")
            if kind == "index" {
                shape["index \(name)"] = [row.text(at: 2) ?? ""]
            } else {
                shape["table \(name)"] = try connection.columns(ofTable: name)
                    .map { "\($0.name) \($0.declaredType)" }.sorted()
            }
        }
        shape["Z_PRIMARYKEY"] = store.entityRecords.map {
            "\($0.number) \($0.name) super \($0.superNumber)"
        }
        return shape
    }
}

extension Context {
    /// A new object of `entity` with the given attribute values.
    @discardableResult
    func make(_ entity: String, _ values: [String: AttributeValue?] = [:]) throws
        -> ManagedObject
    {
        let object = try insert(entity)
        for (key, value) in values.sorted(by: { $0.key < $1.key }) {
            try object.setValue(value, forKey: key)
        }
        return object
    }
}
