import Foundation
import StrataCore

// MARK: - Rows whose Z_ENT names no entity of their table

extension Store {
    /// Rows of one entity table whose `Z_ENT` names no entity stored in that
    /// table (a number missing from `Z_PRIMARYKEY`, another tree's entity,
    /// NULL or text): no entity reads them, so a reader that goes by entity
    /// would leave them out without a word.
    public struct UnknownEntityRows: Codable, Hashable, Sendable, CustomStringConvertible {
        /// The table, such as `ZRECIPE`.
        public var table: String
        /// The `Z_ENT` value as SQLite prints it: `99`, `NULL`, `'x'`.
        public var entity: String
        /// How many rows hold it.
        public var rows: Int64

        /// `3 rows of ZRECIPE with Z_ENT 99`.
        public var description: String {
            "\(rows) row\(rows == 1 ? "" : "s") of \(table) with Z_ENT \(entity)"
        }
    }

    /// The rows of the entity tables whose `Z_ENT` names no entity of their
    /// table, counted by table and value; one grouped scan of each table.
    ///
    /// - Parameter entities: The entities whose tables are scanned (by
    ///   name; their roots' tables are); nil scans every entity's table.
    /// - Returns: Empty for a sound store.
    /// - Throws: ``StoreError`` when a table cannot be read.
    public func unknownEntityRows(of entities: Set<String>? = nil) throws -> [UnknownEntityRows] {
        let byNumber = entityRecordsByNumber
        var numbersByTable: [String: [Int]] = [:]
        var scanned: Set<String> = []
        for record in entityRecords {
            let table = StoreLayout.tableName(ofRoot: Store.root(of: record, in: byNumber).name)
            numbersByTable[table, default: []].append(record.number)
            if entities?.contains(record.name) ?? true { scanned.insert(table) }
        }
        var found: [UnknownEntityRows] = []
        for table in scanned.sorted() {
            guard let numbers = numbersByTable[table], try connection.tableExists(table) else {
                continue
            }
            let marks = Array(repeating: "?", count: numbers.count).joined(separator: ", ")
            do {
                let statement = try connection.prepare(
                    "SELECT quote(Z_ENT), COUNT(*) FROM \(SQLiteIdentifier.quoted(table))"
                        + " WHERE Z_ENT IS NULL OR Z_ENT NOT IN (\(marks))"
                        + " GROUP BY Z_ENT ORDER BY Z_ENT")
                try statement.bind(numbers.map { .integer(Int64($0)) })
                try statement.forEachRow { row in
                    found.append(
                        UnknownEntityRows(
                            table: table, entity: row.text(at: 0) ?? "NULL",
                            rows: row.int64(at: 1)))
                }
            } catch let error as SQLiteError {
                throw StoreError(
                    .corruptMetadata, path: path,
                    message: "cannot read the Z_ENT values of \(table): \(error.message)")
            }
        }
        return found
    }

    /// Refuses to read on when ``unknownEntityRows(of:)`` finds rows: `what`
    /// (an export, an archive) would leave them out.
    ///
    /// - Throws: ``StoreError`` (`corruptMetadata`: the bookkeeping does
    ///   not account for them) naming each table, value and count.
    public func refuseUnknownEntityRows(of entities: Set<String>? = nil, for what: String)
        throws
    {
        let unknown = try unknownEntityRows(of: entities)
        guard !unknown.isEmpty else { return }
        throw StoreError(
            .corruptMetadata, path: path,
            message: "\(unknown.map(\.description).joined(separator: ", ")): their Z_ENT names"
                + " no entity, so \(what) would leave them out; nothing was written")
    }
}
