import Foundation
import Strata

/// Inserts contacts with one prepared `INSERT` through ``Connection``, a
/// transaction per batch: the floor under any object-level insert path.
///
/// Like a context save, each transaction also advances
/// `Z_PRIMARYKEY.Z_MAX`, so the store ends as Core Data would leave it.
enum SQLInsertWorker {
    static func run(_ options: Worker.Options) throws {
        let model = try ContactStore.model(in: options.schemas)
        guard let contact = StoreLayout(model: model).entity(named: "Contact") else {
            throw BenchError(.setup, "the schema has no entity `Contact`")
        }
        let store = try Store.open(at: options.store)
        let start = store.entityRecords.first { $0.number == contact.number }?.maxPrimaryKey ?? 0
        try insert(
            from: options.input.path, into: store.connection, contact: contact, firstKey: start + 1,
            batch: options.batch)
        try store.close()
    }

    /// Inserts every line of `path`; the statements are released on return,
    /// so the connection can close.
    private static func insert(
        from path: String, into connection: Connection, contact: EntityLayout, firstKey: Int64,
        batch: Int
    ) throws {
        guard let first = contact.attributeColumns["firstName"],
            let last = contact.attributeColumns["lastName"],
            let nick = contact.attributeColumns["nickname"]
        else {
            throw BenchError(.setup, "Contact lacks firstName, lastName or nickname")
        }
        let insert = try connection.prepare(
            "INSERT INTO \(contact.tableName) (Z_PK, Z_ENT, Z_OPT, \(first), \(last), \(nick)) "
                + "VALUES (?, \(contact.number), 1, ?, ?, ?)")
        let advance = try connection.prepare("UPDATE Z_PRIMARYKEY SET Z_MAX = ? WHERE Z_ENT = ?")
        let entity = Int64(contact.number)
        var key = firstKey - 1
        var pending = 0

        func commit() throws {
            try advance.execute([.integer(key), .integer(entity)])
            try connection.execute("COMMIT TRANSACTION")
            pending = 0
        }

        let reader = try LineReader(path: path)
        try reader.forEachLine { bytes, line in
            let row = try ContactLine(bytes, line: line, path: reader.path)
            if pending == 0 { try connection.execute("BEGIN IMMEDIATE TRANSACTION") }
            key += 1
            try insert.bind(key, at: 1)
            try insert.bind(row.firstName, at: 2)
            try insert.bind(row.lastName, at: 3)
            if let nickname = row.nickname {
                try insert.bind(nickname, at: 4)
            } else {
                try insert.bindNull(at: 4)
            }
            _ = try insert.step()  // An INSERT returns no row.
            insert.reset()
            pending += 1
            if pending == batch { try commit() }
        }
        if pending > 0 { try commit() }
    }
}
