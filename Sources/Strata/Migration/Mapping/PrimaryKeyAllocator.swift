/// Hands out primary keys for objects a mapping creates, as Core Data does:
/// the next key of an inheritance tree is its root's `Z_MAX` + 1 in
/// `Z_PRIMARYKEY` (coredata-format.md §1.2). The new maxima are written
/// back by ``save()``.
struct PrimaryKeyAllocator {
    private let connection: Connection
    private let model: Model
    private var maxima: [String: Int64] = [:]
    private var changed: Set<String> = []

    /// Reads the roots' `Z_MAX` (never below the highest key in their table).
    init(connection: Connection, model: Model, tables: StoreMapping) throws {
        self.connection = connection
        self.model = model
        try connection.prepare("SELECT Z_NAME, Z_MAX FROM Z_PRIMARYKEY WHERE Z_SUPER = 0")
            .forEachRow { row in
                if let name = row.text(at: 0) { maxima[name] = row.int64(at: 1) }
            }
        for (name, current) in maxima {
            guard let table = tables.entity(named: name)?.table else { continue }
            let highest =
                try connection.scalar("SELECT MAX(Z_PK) FROM \(SQLiteIdentifier.quoted(table))")?
                .int64Value ?? 0
            maxima[name] = max(current, highest)
        }
    }

    /// A fresh primary key for an object of `entity`.
    mutating func next(for entity: String) -> Int64 {
        let root = model.rootEntity(of: entity)?.name ?? entity
        let key = (maxima[root] ?? 0) + 1
        maxima[root] = key
        changed.insert(root)
        return key
    }

    /// Writes the maxima that changed back to `Z_PRIMARYKEY`.
    func save() throws {
        let statement = try connection.prepare(
            "UPDATE Z_PRIMARYKEY SET Z_MAX = ? WHERE Z_NAME = ? AND Z_SUPER = 0")
        for root in changed.sorted() {
            try statement.execute([.integer(maxima[root] ?? 0), .text(root)])
        }
    }
}
