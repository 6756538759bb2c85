/// Objects of one data file, decoded from their lines and checked against
/// the schema, waiting to be inserted; flat arrays, one allocation each per
/// batch rather than per object.
struct BundleObjectBatch {
    /// A media file streamed into an attribute after its row is inserted.
    struct Medium {
        /// The object's index in the batch.
        let object: Int
        let slot: Int
        let entry: ZipEntry
        /// Whether Core Data's external-storage marker byte leads.
        let marker: Bool
    }

    /// One to-many link to insert.
    struct Link {
        /// The object's index in the batch.
        let object: Int
        /// The to-many's slot (``EntityColumns/toManyRelationships``).
        let slot: Int
        let member: Int64
        /// The position Core Data keeps in an ordered to-many (1024 apart).
        let order: Int64
    }

    /// The entity's columns.
    let columns: EntityColumns
    /// The file's name in the bundle, for errors.
    let file: String
    /// Whether the objects are already in the store and only their links
    /// are added.
    let linksOnly: Bool
    /// Each object's line in the file.
    var lines: [Int] = []
    /// Each object's key (`Z_PK`).
    var keys: [Int64] = []
    /// The attribute values, ``EntityColumns/attributes`` of them per
    /// object; NULL when absent.
    var values: [SQLiteValue] = []
    /// The to-one keys, ``EntityColumns/toOneRelationships`` of them per
    /// object; 0 when none.
    var toOneKeys: [Int64] = []
    /// The entity number of each to-one key.
    var toOneEntities: [Int] = []
    var media: [Medium] = []
    var links: [Link] = []

    init(columns: EntityColumns, file: String, linksOnly: Bool) {
        self.columns = columns
        self.file = file
        self.linksOnly = linksOnly
    }

    /// The number of objects.
    var count: Int { keys.count }
}
