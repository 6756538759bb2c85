/// What an export wrote.
public struct ExportSummary: Hashable, Sendable, Codable {
    /// The entity exported.
    public var entity = ""
    /// The format written.
    public var format = ""
    /// Objects written (records at the top level).
    public var records = 0
    /// Media files written to the media folder (each content once).
    public var mediaFiles = 0
    /// Bytes of the output file.
    public var bytes: Int64 = 0
    /// The fields of each line of txt lines, in order: what
    /// `strata import --columns` takes to read them back; nil for other
    /// formats.
    public var columns: [String]?
    /// Wall time, in seconds.
    public var seconds: Double = 0

    /// An empty summary.
    public init() {}
}
