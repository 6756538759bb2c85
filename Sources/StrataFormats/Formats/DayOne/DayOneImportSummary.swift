/// What a Day One import did, for the command's last line and `--json`.
public struct DayOneImportSummary: Hashable, Sendable, Codable {
    /// The journals (`<Journal>.json` files) read.
    public var journals: [String] = []
    /// Entries read from the JSON.
    public var entries = 0
    /// Entries written (new or updated by uuid).
    public var imported = 0
    /// Of ``imported``, entries that were already in the store (same uuid)
    /// and were updated.
    public var updated = 0
    /// Entries skipped as invalid.
    public var skipped = 0
    /// Media written (with or without their bytes).
    public var media = 0
    /// Bytes of media written.
    public var mediaBytes: Int64 = 0
    /// Distinct tags named by the imported entries.
    public var tags = 0
    /// Everything reported, in the order found.
    public var problems: [DayOneProblem] = []
    /// Whether nothing was written (a dry run).
    public var isDryRun = false
    /// Wall time, in seconds.
    public var seconds: Double = 0

    /// An empty summary.
    public init() {}
}

/// What a Day One export wrote.
public struct DayOneExportSummary: Hashable, Sendable, Codable {
    /// Entries written.
    public var entries = 0
    /// Media files written (each distinct file once).
    public var mediaFiles = 0
    /// Bytes of media written.
    public var mediaBytes: Int64 = 0
    /// Entries that had no uuid and got one made from their key.
    public var generatedUUIDs = 0
    /// The size of the zip, in bytes.
    public var zipBytes: Int64 = 0

    /// An empty summary.
    public init() {}
}
