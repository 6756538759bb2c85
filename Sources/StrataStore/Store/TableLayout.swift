/// One SQL table of a store as Core Data lays it out: a root entity's table or
/// a many-to-many join table, with its columns and indexes.
public struct TableLayout: Hashable, Sendable {
    /// A column with its declared SQL type.
    public struct Column: Hashable, Sendable {
        /// The column name, such as `ZTITLE` or `Z_PK`.
        public var name: String
        /// The declared type: `INTEGER`, `TIMESTAMP`, `FLOAT`, `DECIMAL`,
        /// `VARCHAR` or `BLOB`.
        public var type: String
        /// Whether the column is (part of) the primary key.
        public var isPrimaryKey: Bool = false
    }

    /// A secondary index.
    public struct Index: Hashable, Sendable {
        /// The index name, such as `ZMEDIUM_ZDIARYENTRY_INDEX`.
        public var name: String
        /// The indexed columns, in order.
        public var columns: [String]
        /// Whether the index enforces uniqueness.
        public var isUnique: Bool = false
        /// Whether columns are written Core Data's modern way,
        /// `ZURL COLLATE BINARY ASC` (fetch indexes and uniqueness constraints).
        public var isFetchIndexStyle: Bool = false
        /// The columns sorted largest first (`DESC`) in a fetch-index-style
        /// index; every other column is ascending.
        public var descendingColumns: Set<String> = []
    }

    /// The table name.
    public var name: String
    /// The columns in the order they are created.
    public var columns: [Column]
    /// The table's indexes.
    public var indexes: [Index] = []

    /// Every stored property (the memberwise initializer, for the other layers).
    package init(name: String, columns: [Column], indexes: [Index] = []) {
        self.name = name
        self.columns = columns
        self.indexes = indexes
    }
}
