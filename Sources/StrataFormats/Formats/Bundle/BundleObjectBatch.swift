import StrataCore

/// Objects of one data file, decoded from their lines and checked against
/// the schema, waiting to be inserted; flat arrays, one allocation each per
/// batch rather than per object.
struct BundleObjectBatch {
    /// A media file of an attribute: read into ``bytes`` when small, else
    /// streamed into its row after the row is inserted.
    struct Medium {
        /// The object's index in the batch.
        let object: Int
        let slot: Int
        let entry: ZipEntry
        /// Whether Core Data's external-storage marker byte leads.
        let marker: Bool
        /// Where the value (marker included) is in ``bytes``; nil when it
        /// is streamed.
        let bytes: Range<Int>?
    }

    /// One attribute value, flat: numbers inline, text and bytes in the
    /// batch's ``bytes`` (so a batch holds no reference per value, and the
    /// inserting thread binds them without copying).
    struct Value {
        enum Kind: UInt8 {
            case null, integer, real, text, blob
        }
        var kind: Kind
        /// The integer; the real's bit pattern; or where the text or bytes
        /// start in ``bytes``.
        var payload: Int64
        /// The length of the text or bytes.
        var count: Int

        static let null = Value(kind: .null, payload: 0, count: 0)

        package static func integer(_ value: Int64) -> Value {
            Value(kind: .integer, payload: value, count: 0)
        }

        package static func real(_ value: Double) -> Value {
            Value(kind: .real, payload: Int64(bitPattern: value.bitPattern), count: 0)
        }
    }

    /// One to-many link to insert.
    struct Link {
        /// The object's index in the batch.
        let object: Int
        /// The to-many's slot (``EntityColumns/toManyRelationships``).
        let slot: Int
        let member: Int64
        /// The position Core Data keeps in an ordered to-many (``OrderKey``).
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
    var values: [Value] = []
    /// The text and bytes of ``values`` and small media, one after another.
    var bytes: [UInt8] = []
    /// The to-one keys, ``EntityColumns/toOneRelationships`` of them per
    /// object; 0 when none.
    var toOneKeys: [Int64] = []
    /// The entity number of each to-one key.
    var toOneEntities: [Int] = []
    var media: [Medium] = []
    var links: [Link] = []
    /// Whether this is the last batch of its file (it may hold no object).
    var endsFile = false

    init(columns: EntityColumns, file: String, linksOnly: Bool) {
        self.columns = columns
        self.file = file
        self.linksOnly = linksOnly
    }

    /// The number of objects.
    var count: Int { keys.count }

    /// Whether the batch is full: by objects, or by the bytes it holds
    /// (media make a few objects weigh a megabyte).
    var isFull: Bool { count >= BundleObjectDecoder.batchSize || bytes.count >= Self.byteLimit }

    /// The bytes past which a batch is handed over.
    static let byteLimit = 256 << 10

    /// Everything the batch holds, one line per piece, values resolved to
    /// their bytes: for comparing the batches two readings of the same
    /// lines made (tests, fuzzing).
    var contents: [String] {
        var lines = ["keys \(keys) lines \(lines) ends \(endsFile)"]
        for value in values {
            let start = Int(value.payload)
            switch value.kind {
            case .text, .blob:
                lines.append("\(value.kind) \(Array(bytes[start..<(start + value.count)]))")
            case .integer, .real, .null:
                lines.append("\(value.kind) \(value.payload)")
            }
        }
        lines.append("to-one \(toOneKeys) \(toOneEntities)")
        for medium in media {
            let read = medium.bytes.map { Array(bytes[$0]) } ?? []
            lines.append(
                "medium \(medium.object) \(medium.slot) \(medium.entry.path) \(medium.marker) \(read)"
            )
        }
        for link in links {
            lines.append("link \(link.object) \(link.slot) \(link.member) \(link.order)")
        }
        return lines
    }

    /// Sets value `index` to `value` (its text or bytes copied into
    /// ``bytes``).
    mutating func set(_ value: SQLiteValue, at index: Int) {
        switch value {
        case .null: values[index] = .null
        case .integer(let number): values[index] = .integer(number)
        case .real(let number): values[index] = .real(number)
        case .text(let text):
            let start = bytes.count
            bytes.append(contentsOf: text.utf8)
            values[index] = Value(kind: .text, payload: Int64(start), count: bytes.count - start)
        case .blob(let data):
            let start = bytes.count
            bytes.append(contentsOf: data)
            values[index] = Value(kind: .blob, payload: Int64(start), count: bytes.count - start)
        }
    }
}
