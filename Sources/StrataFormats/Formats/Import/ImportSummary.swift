import Foundation

/// What an import did, for the final line and `--json`.
public struct ImportSummary: Hashable, Sendable, Codable {
    /// The entity the input's records became (the first, when groups of a
    /// plist or JSON document became several: ``recordEntities``).
    public var entity: String = ""
    /// The entities the input's records became, in the order met, when
    /// its groups became more than one (`{"Species": […], "Penguin": […]}`,
    /// several `--path`s); empty otherwise.
    public var recordEntities: [String] = []
    /// Records read from the input.
    public var records = 0
    /// Objects inserted, all entities (nested and related ones included).
    public var inserted = 0
    /// Existing objects updated through a unique key.
    public var updated = 0
    /// Records left out because they were bad (skip policy).
    public var rejected = 0
    /// Records left out as duplicates of an earlier one (`duplicates: first`).
    public var duplicatesSkipped = 0
    /// Objects inserted per entity.
    public var insertedByEntity: [String: Int] = [:]
    /// Uniqueness lookups run against the store (one per batch at most).
    public var keyLookups = 0
    /// Bytes of input read.
    public var bytes: Int64 = 0
    /// Wall time of the import, in seconds.
    public var seconds: Double = 0
    /// Whether nothing was written (a dry run).
    public var isDryRun = false
    /// What the import guessed and says beside its summary, such as an
    /// input read as Windows-1252.
    public var notes: [String] = []

    /// Creates an empty summary.
    public init() {}
}

/// How far an import has got, handed to a progress callback.
public struct ImportProgress: Hashable, Sendable {
    /// Records read so far.
    public var records: Int
    /// Bytes of input read so far.
    public var bytesRead: Int64
    /// The input's size, when known.
    public var totalBytes: Int64?
}
