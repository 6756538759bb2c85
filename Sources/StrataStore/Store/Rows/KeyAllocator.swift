import StrataCore
import StrataSchema

/// Hands out Core Data's primary keys: the only code that reads or writes
/// `Z_PRIMARYKEY` — its first rows, the entity numbers and `Z_MAX`
/// (coredata-format.md §1.2). The migrator's DDL planner rebuilds the table.
///
/// The next key of an inheritance tree is its root's `Z_MAX` + 1, kept on
/// the root's row only (subentity rows keep 0). Keys are never reused, and a
/// store whose `Z_MAX` lags behind its rows (written by a tool that forgot
/// it) must not collide: a tree's counter starts at the larger of `Z_MAX`
/// and the highest `Z_PK` in its table. The keys handed out reach the store
/// with ``save()``, in the writer's transaction, before it commits.
///
/// Every writer takes its keys here: the context's save, the importer, the
/// bundle loader and merger, and the migrator's mapping applier.
package final class KeyAllocator {
    /// One inheritance tree's counter, shared by the writers of its
    /// entities (the importer's plans hold it for their hot path).
    package final class Counter {
        // No run-time exclusivity checks: a bulk insert takes a key per row,
        // and no access to a counter is ever nested in another.

        /// The highest key handed out.
        @exclusivity(unchecked) package var maximum: Int64
        /// The maximum before any key was handed out: rows above it are
        /// the writer's own.
        package let start: Int64
        /// Whether ``maximum`` changed since the last ``KeyAllocator/save()``.
        @exclusivity(unchecked) var isChanged = false

        init(maximum: Int64) {
            self.maximum = maximum
            self.start = maximum
        }

        /// A fresh key.
        package func next() -> Int64 {
            maximum += 1
            isChanged = true
            return maximum
        }

        /// The first of `count` fresh, consecutive keys (as many calls of
        /// ``next()`` would give, in one).
        package func take(_ count: Int) -> Int64 {
            guard count > 0 else { return maximum + 1 }
            let first = maximum + 1
            maximum += Int64(count)
            isChanged = true
            return first
        }
    }

    private let connection: Connection
    /// `Z_MAX` of each root, by entity name, as the store recorded it.
    private var recorded: [String: Int64] = [:]
    private var counters: [String: Counter] = [:]

    /// Reads the roots' `Z_MAX`.
    package init(connection: Connection) throws {
        self.connection = connection
        // Cached: a context takes keys at every save.
        try connection.cachedStatement(
            "SELECT Z_NAME, Z_MAX FROM main.Z_PRIMARYKEY WHERE Z_SUPER = 0"
        )
        .forEachRow { row in
            if let name = row.text(at: 0) { recorded[name] = row.int64(at: 1) }
        }
    }

    /// The counter of the tree rooted at `root`, whose rows are in `table`.
    package func counter(forRoot root: String, table: String) throws -> Counter {
        if let counter = counters[root] { return counter }
        let query = try connection.cachedStatement(
            "SELECT max(Z_PK) FROM main.\(SQLiteIdentifier.quoted(table))")
        let highest = try query.step() ? query.value(at: 0).int64Value ?? 0 : 0
        let counter = Counter(maximum: max(recorded[root] ?? 0, highest))
        counters[root] = counter
        return counter
    }

    /// A fresh key for a row of the tree rooted at `root`.
    package func next(forRoot root: String, table: String) throws -> Int64 {
        try counter(forRoot: root, table: table).next()
    }

    /// Writes the maxima handed out since the last save to the roots' rows
    /// (never lowering one another writer raised meanwhile).
    package func save() throws {
        for (root, counter) in counters.sorted(by: { $0.key < $1.key }) where counter.isChanged {
            try connection.cachedStatement(
                "UPDATE main.Z_PRIMARYKEY SET Z_MAX = max(Z_MAX, ?) WHERE Z_NAME = ? AND Z_SUPER = 0"
            ).execute([.integer(counter.maximum), .text(root)])
            counter.isChanged = false
        }
    }

    /// Writes the first bookkeeping row of each entity of a new store:
    /// its number, name and parent's number, and `Z_MAX` 0.
    package static func recordEntities(_ entities: [EntityLayout], on connection: Connection) throws
    {
        let insert = try connection.prepare(
            "INSERT INTO main.Z_PRIMARYKEY (Z_ENT, Z_NAME, Z_SUPER, Z_MAX) VALUES (?, ?, ?, 0)")
        for entity in entities {
            try insert.execute([
                .integer(Int64(entity.number)), .text(entity.name),
                .integer(Int64(entity.superNumber)),
            ])
        }
    }

    /// Every row of `Z_PRIMARYKEY` in entity order.
    ///
    /// - Throws: ``StoreError`` (`corruptMetadata`) for a row without a
    ///   name; SQLite's error when the table cannot be read.
    package static func entityRecords(on connection: Connection, path: String) throws -> [Store
        .EntityRecord]
    {
        var records: [Store.EntityRecord] = []
        let rows = try connection.prepare(
            "SELECT Z_ENT, Z_NAME, Z_SUPER, Z_MAX FROM main.Z_PRIMARYKEY ORDER BY Z_ENT")
        while try rows.step() {
            guard let name = rows.text(at: 1) else {
                throw StoreError(
                    .corruptMetadata, path: path, message: "Z_PRIMARYKEY: a row has no Z_NAME")
            }
            records.append(
                Store.EntityRecord(
                    number: Int(rows.int64(at: 0)), name: name,
                    superNumber: Int(rows.int64(at: 2)), maxPrimaryKey: rows.int64(at: 3)))
        }
        return records
    }

    /// The `Z_MAX` the store records for entity `number` (0 when none).
    package static func recorded(ofEntity number: Int, on connection: Connection) throws -> Int64 {
        try connection.scalar(
            "SELECT Z_MAX FROM main.Z_PRIMARYKEY WHERE Z_ENT = ?", [.integer(Int64(number))])?
            .int64Value ?? 0
    }

    /// Raises the `Z_MAX` of each root of `model` to the highest key in its
    /// table, for writers that copy rows with their keys (a bundle loaded
    /// or merged).
    package static func raiseToHighestKeys(
        of mapping: StoreMapping, model: Model, on connection: Connection
    ) throws {
        let roots = mapping.entities.values.filter { model.entity(named: $0.name)?.parent == nil }
        for root in roots.sorted(by: { $0.number < $1.number }) {
            try connection.execute(
                "UPDATE main.Z_PRIMARYKEY SET Z_MAX = max(coalesce(Z_MAX, 0), (SELECT "
                    + "coalesce(max(Z_PK), 0) FROM main.\(SQLiteIdentifier.quoted(root.table)))) "
                    + "WHERE Z_ENT = ?",
                [.integer(Int64(root.number))])
        }
    }
}
