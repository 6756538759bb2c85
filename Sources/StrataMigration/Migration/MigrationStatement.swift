import StrataCore
import StrataSchema
import StrataStore

/// One SQL statement of a migration, with the values bound to its `?`
/// placeholders.
///
/// Identifiers are written by the store layout's naming rules; values (a
/// default that backfills a column, an entity name) are never part of the
/// text, they are ``arguments``.
public struct MigrationStatement: Hashable, Sendable {
    /// The SQL text, with one `?` per argument.
    public var sql: String
    /// The values bound to the placeholders, in order, already in the form
    /// the columns store them (booleans as 0/1, dates as seconds since 2001,
    /// UUIDs as 16 bytes, external-storage binaries with their marker byte),
    /// plus entity names for `Z_PRIMARYKEY`.
    public var arguments: [AttributeValue]
    /// When the statement runs relative to the others of the plan.
    let phase: MigrationPhase
    /// Whether the statement writes rows of a kept table in place (`UPDATE`,
    /// `DELETE`), as opposed to changing only its schema (`ADD COLUMN`,
    /// indexes). Rebuilt and new tables are written whole anyway.
    let writesRows: Bool

    init(
        _ sql: String, _ arguments: [AttributeValue] = [], phase: MigrationPhase,
        writesRows: Bool = false
    ) {
        self.sql = sql
        self.arguments = arguments
        self.phase = phase
        self.writesRows = writesRows
    }

    /// Runs the statement on `connection`, its arguments bound as the
    /// columns store them.
    ///
    /// - Throws: ``SQLiteError`` when the statement fails.
    public func execute(on connection: Connection) throws {
        try connection.execute(
            sql, arguments.map { ColumnValueCodec.encode($0, externalStorage: false) })
    }
}

/// The order in which a plan's statements run. Every statement that reads
/// old data runs before any old table is dropped, so steps on different
/// tables never see each other's half-done work.
enum MigrationPhase: Int, Comparable, Sendable {
    /// Create the new tables and fill them from the old ones.
    case build
    /// Change kept tables in place (`ADD COLUMN`, `UPDATE`, `DELETE`).
    case alter
    /// Drop the old tables that were rebuilt or removed.
    case drop
    /// Rename rebuilt tables to their final names and create their indexes.
    case finish
    /// Rewrite `Z_PRIMARYKEY` for the new entity numbers.
    case primaryKeys

    static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}
