import Foundation
import Strata

/// A store an import benchmark fills: removed before each run, then created
/// by `strata import --schemas` itself in the timed run (as the peers create
/// their database files in theirs), and checked after.
struct ImportStore {
    /// Where the store lives.
    let url: URL
    /// The schema folder, as passed to `strata import --schemas`.
    let schemas: URL
    /// The newest model of `schemas`.
    let model: Model
    /// Its tables and columns.
    let layout: StoreLayout

    /// Loads the newest model of `schemas`.
    ///
    /// - Throws: A `SchemaError` when the folder does not load.
    init(url: URL, schemas: URL) throws {
        self.url = url
        self.schemas = schemas
        model = try SchemaChain.load(directory: schemas).newest
        layout = StoreLayout(model: model)
    }

    /// Removes any previous store: the timed `strata import --schemas`
    /// creates it (complete, or not at all).
    func recreate() throws {
        try ImportStore.removeDatabase(at: url)
    }

    /// The layout of entity `name`.
    ///
    /// - Throws: ``BenchError`` (`setup`) when the model has no such entity.
    func entity(_ name: String) throws -> EntityLayout {
        guard let entity = layout.entity(named: name) else {
            throw BenchError(.setup, "\(schemas.lastPathComponent) has no entity `\(name)`")
        }
        return entity
    }

    /// The column of attribute `attribute` of entity `entity`.
    ///
    /// - Throws: ``BenchError`` (`setup`) when there is none.
    func column(_ attribute: String, of entity: String) throws -> String {
        guard let column = try self.entity(entity).attributeColumns[attribute] else {
            throw BenchError(.setup, "\(entity) has no stored attribute `\(attribute)`")
        }
        return column
    }

    /// The foreign-key column of to-one relationship `relationship` of
    /// entity `entity`.
    ///
    /// - Throws: ``BenchError`` (`setup`) when there is none.
    func foreignKey(_ relationship: String, of entity: String) throws -> String {
        guard let columns = try self.entity(entity).toOneColumns[relationship] else {
            throw BenchError(.setup, "\(entity) has no to-one relationship `\(relationship)`")
        }
        return columns.foreignKey
    }

    /// Checks the store after a run: SQLite finds it sound, each entity of
    /// `counts` has that many rows and a `Z_PRIMARYKEY.Z_MAX` to match,
    /// and `more` passes.
    ///
    /// - Throws: ``BenchError`` (`verification`) naming what is wrong.
    func verify(counts: [String: Int], _ more: (Connection) throws -> Void = { _ in }) throws {
        let store = try Store.open(at: url, mode: .readOnly)
        defer { try? store.close() }  // Read-only; nothing to lose on close.
        let connection = store.connection
        let problems = try connection.integrityCheck()
        guard problems == ["ok"] else {
            throw failure("fails PRAGMA integrity_check: \(problems.prefix(3))")
        }
        for (name, expected) in counts.sorted(by: { $0.key < $1.key }) {
            let entity = try self.entity(name)
            try expect(
                connection,
                "SELECT count(*) FROM \(entity.tableName) WHERE Z_ENT = \(entity.number)",
                equals: expected, "\(name) rows")
            try expect(
                connection, "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = \(entity.number)",
                equals: expected, "Z_PRIMARYKEY.Z_MAX of \(name)")
        }
        try more(connection)
    }

    /// Checks that `sql`, a query of one integer, gives `expected`.
    ///
    /// - Throws: ``BenchError`` (`verification`) saying `what` differs.
    func expect(_ connection: Connection, _ sql: String, equals expected: Int, _ what: String)
        throws
    {
        let value = try connection.scalar(sql)?.int64Value
        guard value == Int64(expected) else {
            throw failure(
                "has \(value.map(String.init) ?? "no value") \(what), expected \(expected)")
        }
    }

    /// A verification failure about this store.
    func failure(_ message: String) -> BenchError {
        BenchError(.verification, "\(url.lastPathComponent) \(message)")
    }

    /// Removes a database file and its companions (`-wal`, `-shm`,
    /// `-journal`), if present.
    static func removeDatabase(at url: URL) throws {
        for suffix in ["", "-wal", "-shm", "-journal"] {
            let path = url.path + suffix
            if FileManager.default.fileExists(atPath: path) {
                try FileManager.default.removeItem(atPath: path)
            }
        }
    }
}
