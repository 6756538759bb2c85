/// What archiving or unarchiving a bundle did.
public struct BundleSummary: Hashable, Sendable, Codable {
    /// The model's name.
    public var model = ""
    /// The schema version of the bundle's data.
    public var bundleVersion = 0
    /// The schema version of the store written (unarchiving: later than
    /// ``bundleVersion`` when the records were migrated).
    public var storeVersion = 0
    /// Objects per entity.
    public var counts: [String: Int] = [:]
    /// Distinct media files in the bundle.
    public var mediaFiles = 0
    /// Bytes of media in the bundle (each distinct file once).
    public var mediaBytes: Int64 = 0
    /// Bytes of the zip file.
    public var zipBytes: Int64 = 0
    /// Wall time, in seconds.
    public var seconds: Double = 0

    /// An empty summary.
    public init() {}
}
