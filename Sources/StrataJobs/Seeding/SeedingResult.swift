import Foundation

/// What ``Seeder/seedIfMissing()`` found or did.
public struct SeedingResult: Hashable, Sendable {
    /// Whether the store was made by this call.
    public enum Outcome: String, Hashable, Sendable, Codable {
        /// The store was built from the seed and linked into place.
        case seeded
        /// There was no seed: an empty store was made at the newest version.
        case created
        /// A store was there already (made earlier, or by another process
        /// meanwhile); it was left as it is.
        case existing
    }

    /// What happened.
    public var outcome: Outcome
    /// The store's location.
    public var storeURL: URL
    /// What the store was seeded with, read from its metadata (nil for a
    /// store that was not seeded).
    public var seed: SeedRecord?
    /// Objects per entity in the store just made (empty for an existing one).
    public var counts: [String: Int64] = [:]
    /// Files a killed seeding had left beside the store, removed by this call.
    public var removedLeftovers: [String] = []
    /// How long the call took, in seconds.
    public var seconds: Double = 0
}
