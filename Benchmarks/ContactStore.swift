import Foundation
import Strata

/// A fresh `Contacts` store for an insert benchmark, and the checks made on
/// it after a run.
///
/// The insert benchmarks use version 1 of `Schemas/Contacts` (first name,
/// last name, nickname), whatever the newest version is: the peer's
/// ready-made rows (``ContactCSV``) have its columns.
struct ContactStore {
    /// The version of `Schemas/Contacts` the insert benchmarks write.
    static let schemaVersion = 1

    /// Loads version ``schemaVersion`` of the model in `schemas`.
    ///
    /// - Throws: A `SchemaError`, or ``BenchError`` (`setup`) when the
    ///   folder has no such version.
    static func model(in schemas: URL) throws -> Model {
        guard let model = try SchemaChain.load(directory: schemas).model(version: schemaVersion)
        else {
            throw BenchError(
                .setup, "\(schemas.lastPathComponent) has no version \(schemaVersion)")
        }
        return model
    }

    /// Where the store lives.
    let url: URL
    /// The model the store is created for.
    let model: Model
    /// The `Contact` entity's layout (its number and table).
    let contact: EntityLayout

    /// Resolves the `Contact` entity of `model`.
    ///
    /// - Throws: ``BenchError`` (`setup`) when the model has no `Contact`
    ///   entity, or its table's columns are not the ones the peer imports.
    init(url: URL, model: Model) throws {
        let layout = StoreLayout(model: model)
        guard let contact = layout.entity(named: "Contact") else {
            throw BenchError(.setup, "the Contacts schema has no entity `Contact`")
        }
        let columns = layout.entityTables.first { $0.name == contact.tableName }?.columns
        guard columns?.map(\.name) == ContactCSV.header.split(separator: ",").map(String.init)
        else {
            throw BenchError(
                .setup,
                "\(contact.tableName) columns are \(columns?.map(\.name) ?? []), "
                    + "not the `\(ContactCSV.header)` the peer imports")
        }
        self.url = url
        self.model = model
        self.contact = contact
    }

    /// Replaces any previous store by an empty one, created by Strata.
    func recreate() throws {
        for suffix in ["", "-wal", "-shm", "-journal"] {
            let path = url.path + suffix
            if FileManager.default.fileExists(atPath: path) {
                try FileManager.default.removeItem(atPath: path)
            }
        }
        try Store.create(at: url, model: model).close()
    }

    /// Checks that the store holds `rows` contacts, that `Z_PRIMARYKEY`
    /// accounts for them and that SQLite finds the file sound.
    ///
    /// - Throws: ``BenchError`` (`verification`) naming what is wrong.
    func verify(rows: Int) throws {
        let store = try Store.open(at: url, mode: .readOnly)
        defer { try? store.close() }  // Read-only; nothing to lose on close.
        let connection = store.connection
        let count = try connection.scalar("SELECT count(*) FROM \(contact.tableName)")
        guard count?.int64Value == Int64(rows) else {
            throw failure("holds \(count?.int64Value ?? -1) contacts, expected \(rows)")
        }
        let maximum = try connection.scalar(
            "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = ?", [.integer(Int64(contact.number))])
        guard maximum?.int64Value == Int64(rows) else {
            throw failure("Z_PRIMARYKEY.Z_MAX is \(maximum?.int64Value ?? -1), expected \(rows)")
        }
        let problems = try connection.integrityCheck()
        guard problems == ["ok"] else {
            throw failure("fails PRAGMA integrity_check: \(problems.prefix(3))")
        }
    }

    /// Checks that this store and `other` hold the same contact rows.
    ///
    /// - Throws: ``BenchError`` (`verification`) with the number of rows
    ///   that differ.
    func verifySameContacts(as other: ContactStore) throws {
        let connection = try Connection(path: url.path, mode: .readOnly)
        defer { try? connection.close() }  // Read-only; nothing to lose on close.
        try connection.execute("ATTACH DATABASE ? AS other", [.text(other.url.path)])
        let table = contact.tableName
        let columns = ContactCSV.header
        let different = try connection.scalar(
            """
            SELECT (SELECT count(*) FROM (SELECT \(columns) FROM main.\(table)
                                          EXCEPT SELECT \(columns) FROM other.\(table)))
                 + (SELECT count(*) FROM (SELECT \(columns) FROM other.\(table)
                                          EXCEPT SELECT \(columns) FROM main.\(table)))
            """)
        guard different?.int64Value == 0 else {
            throw failure(
                "and \(other.url.lastPathComponent) differ in "
                    + "\(different?.int64Value ?? -1) rows")
        }
    }

    private func failure(_ message: String) -> BenchError {
        BenchError(.verification, "\(url.lastPathComponent) \(message)")
    }
}
