/// The bounds every reader keeps to, so that memory stays bounded whatever
/// the input: a hostile file meets an ``ImportError/Code/tooLarge`` error,
/// not an out-of-memory kill. The importer keeps to them too: a computed
/// attribute's value may be as large as a field
/// (``maximumFieldBytes``), and a record may make at most
/// ``maximumObjectsPerRecord`` objects.
public struct ImportLimits: Hashable, Sendable {
    /// The largest field, in bytes (a 100 MB field is refused by default).
    public var maximumFieldBytes: Int = 16 * 1024 * 1024
    /// The largest record (a CSV row, a JSON element, a txt block), in bytes.
    public var maximumRecordBytes: Int = 64 * 1024 * 1024
    /// The most fields in one record.
    public var maximumFieldCount: Int = 10_000
    /// The deepest nesting of arrays and dictionaries (plists, JSON).
    public var maximumDepth: Int = 64
    /// The most values (scalars, arrays and dictionaries) in one record of
    /// a binary property list, an object that several references share
    /// counted once for each: sharing lets a file of a few hundred bytes
    /// stand for millions of values. (Text formats write every value out, so
    /// ``maximumRecordBytes`` bounds them.)
    public var maximumValuesPerRecord: Int = 250_000
    /// The most objects one input record may make: itself and every nested
    /// record (dictionary) that becomes an object of a relationship.
    public var maximumObjectsPerRecord: Int = 100_000

    /// The default limits.
    public init() {}
}
