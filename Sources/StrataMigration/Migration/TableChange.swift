/// What a migration does to one table of the store, and which steps of the
/// plan it carries out.
///
/// Steps that touch the same table share one change: the table is rebuilt at
/// most once however many steps need it (those steps are *fused*).
public struct TableChange: Hashable, Sendable {
    /// How a table is changed.
    public enum Strategy: String, Hashable, Sendable {
        /// A new table: `CREATE TABLE` and its indexes.
        case create
        /// The table is kept and changed in place: `ALTER TABLE … ADD
        /// COLUMN`, `UPDATE`, `DELETE`, index changes. Adding a nullable
        /// column this way takes constant time.
        case alter
        /// SQLite's rebuild procedure: create the new table, `INSERT INTO
        /// new SELECT … FROM old`, drop the old table, rename the new one,
        /// recreate the indexes.
        case rebuild
        /// The table goes away.
        case drop
        /// The rows of a bookkeeping table are rewritten (`Z_PRIMARYKEY`).
        case rewrite
    }

    /// The table's name after the migration (before it, for a dropped table).
    public var table: String
    /// How the table is changed.
    public var strategy: Strategy
    /// The tables of the old version the rows come from.
    public var sources: [String]
    /// The indices in ``MigrationPlan/steps`` of the steps this change
    /// carries out.
    public var steps: [Int]
    /// The statements, in the order they run.
    public var statements: [MigrationStatement]

    /// Whether the change writes rows: every strategy but `alter` does; an
    /// altered table only when it is updated or has rows deleted, not when
    /// it only gains nullable columns or indexes.
    public var writesRows: Bool {
        strategy != .alter || statements.contains(where: \.writesRows)
    }

    /// Whether several steps share one rebuild of this table.
    public var isFused: Bool { strategy == .rebuild && steps.count > 1 }
}
