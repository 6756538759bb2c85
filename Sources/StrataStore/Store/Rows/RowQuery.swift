import StrataCore

/// A column an entity's rows are read by, named by what it holds rather
/// than by its SQL name: ``RowReader`` finds the column in the store's
/// mapping (coredata-format.md §1).
package enum RowColumn: Hashable, Sendable {
    /// `Z_PK`.
    case key
    /// `Z_ENT`.
    case entity
    /// `Z_OPT`.
    case version
    /// NULL: a property the store keeps no column for, read as no value.
    case null
    /// An attribute's column.
    case attribute(String)
    /// The first `bytes` bytes of an attribute's column: enough to tell an
    /// external-storage reference or sniff a media type, without reading a
    /// large value.
    case attributePrefix(String, bytes: Int)
    /// A to-one relationship's key column.
    case toOne(String)
    /// A to-one relationship's `Z<n>_` entity column (NULL when the store
    /// has none).
    case toOneEntity(String)
    /// A to-one relationship's place in its inverse's ordered list (NULL
    /// when the store has none).
    case toOneOrder(String)
    /// An attribute reached through to-one relationships
    /// (`author.address.city`), by `LEFT JOIN`s: NULL where a link is empty
    /// or the store lacks a column on the way.
    case keyPath([String])
    /// An expression over the entity's table, aliased `t0`, compiled by the
    /// query layer (``RowQuery/from`` names the joins it needs).
    case compiled(String)
    /// 1 when the column is NULL, else 0.
    case isNull(RowColumnName)
    /// How many rows have the column NULL (an aggregate: one row in all).
    case nullCount(RowColumnName)
    /// How many rows (an aggregate).
    case count
}

/// A stored column, for the tests a read makes on it (``RowColumn/isNull(_:)``,
/// ``RowFilter/isNull(_:)``).
package enum RowColumnName: Hashable, Sendable {
    /// An attribute's column.
    case attribute(String)
    /// A to-one relationship's key column.
    case toOne(String)
}

/// Which rows of an entity's table a read takes, besides its filters.
package enum RowFilter: Hashable, Sendable {
    /// The row with the key bound when the statement is stepped (one
    /// parameter). Parameters bound per read come after the compiled
    /// ones, in the order of their filters.
    case key
    /// The rows whose `columns` equal one of `count` tuples bound when the
    /// statement is stepped (`columns.count × count` parameters, tuple by
    /// tuple).
    case values([RowColumn], count: Int)
    /// The rows whose column equals the value bound when the statement is
    /// stepped (one parameter).
    case equals(RowColumnName)
    /// The rows whose column is NULL or equals the value bound when the
    /// statement is stepped (one parameter): a to-one free or already
    /// linked to a given object.
    case isNullOrEquals(RowColumnName)
    /// The rows whose column is NULL.
    case isNull(RowColumnName)
    /// The rows whose column is not NULL.
    case isNotNull(RowColumnName)
    /// The rows whose to-many relationship holds fewer than `count`
    /// destinations: stored links to the row (the destinations' keys to
    /// their owner, or join rows), counted for each row.
    case fewerDestinations(String, than: Int)
    /// The rows whose to-many relationship holds at least one destination
    /// (a stored link to the row).
    case hasDestinations(String)
    /// A condition over `t0` compiled by the query layer; its values are
    /// ``RowQuery/arguments``.
    case compiled(String)
}

/// One read of an entity's rows: what it selects, which rows and in what
/// order. ``RowReader/prepare(_:)`` turns it into the statement; nothing
/// outside the row layer writes the SQL of a read.
package struct RowQuery: Hashable, Sendable {
    /// Which entities' rows of the table are read.
    package enum Entities: Hashable, Sendable {
        /// The entity and its subentities (a Core Data fetch).
        case tree
        /// The entity's own rows.
        case exactly
        /// Every row of the table but those of `numbers`: rows whose
        /// `Z_ENT` names no entity are read too, for the caller to refuse
        /// rather than leave out unseen.
        case allBut([Int])
        /// Every row of the table.
        case table
    }

    /// The entity read.
    package var entity: String
    /// The columns selected, in order (column 0 first).
    package var columns: [RowColumn]
    /// Which entities' rows are read.
    package var entities: Entities = .tree
    /// The filters, all of which a row passes.
    package var filters: [RowFilter] = []
    /// The `FROM` clause of a query compiled by the query layer (the table
    /// as `t0`, then its joins); nil: the entity's table as `t0`.
    package var from: String?
    /// The values of ``RowFilter/compiled(_:)`` filters and
    /// ``RowColumn/compiled(_:)`` columns, in order. Bound by
    /// ``RowReader/prepare(_:)`` unless the query has parameters bound per
    /// read (``RowFilter/key``, ``RowFilter/values(_:count:)``), which the
    /// caller binds after them.
    package var arguments: [SQLiteValue] = []
    /// Compiled sort expressions (`t0.ZNAME DESC`), before the key.
    package var order: [String] = []
    /// Whether rows come in key order (after ``order``); off for aggregates
    /// and for reads whose order does not matter.
    package var inKeyOrder = true
    /// At most this many rows; nil: every row.
    package var limit: Int?
    /// Whether the statement ends in `LIMIT ? OFFSET ?`, bound per read
    /// after every other parameter (a page; -1 for no limit): one statement
    /// serves every page.
    package var pagesByParameters = false
    /// The columns whose equal values make one group: one row per group,
    /// its aggregate columns (``RowColumn/count``,
    /// ``RowColumn/nullCount(_:)``) counted within it; empty: no groups.
    /// Grouped reads leave ``inKeyOrder`` off.
    package var groupBy: [RowColumn] = []
    /// Only groups of at least this many rows (2: values held more than
    /// once); nil: every group.
    package var minimumGroupSize: Int?

    /// A read of `columns` of `entity`'s rows.
    package init(_ entity: String, _ columns: [RowColumn]) {
        self.entity = entity
        self.columns = columns
    }

    /// Whether the statement has parameters the caller binds per read.
    var hasReadParameters: Bool {
        pagesByParameters
            || filters.contains {
                switch $0 {
                case .key, .values, .equals, .isNullOrEquals: return true
                default: return false
                }
            }
    }
}
