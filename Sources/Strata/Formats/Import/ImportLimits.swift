/// The bounds every reader keeps to, so that memory stays bounded whatever
/// the input: a hostile file meets an ``ImportError/Code/tooLarge`` error,
/// not an out-of-memory kill.
public struct ImportLimits: Hashable, Sendable {
    /// The largest field, in bytes (a 100 MB field is refused by default).
    public var maximumFieldBytes: Int = 16 * 1024 * 1024
    /// The largest record (a CSV row, a JSON element, a txt block), in bytes.
    public var maximumRecordBytes: Int = 64 * 1024 * 1024
    /// The most fields in one record.
    public var maximumFieldCount: Int = 10_000
    /// The deepest nesting of arrays and dictionaries (plists, JSON).
    public var maximumDepth: Int = 64

    /// The default limits.
    public init() {}
}
