import Foundation
import StrataCore

/// How a bundle is unarchived.
///
/// ```swift
/// var options = UnarchiveOptions()
/// options.schemas = schemasURL  // migrate to the newest
/// options.merges = true          // into an existing store
/// ```
public struct UnarchiveOptions: Sendable {
    /// A model folder (`Schemas/<Model>`): the bundle's records are migrated
    /// through its chain to ``targetVersion`` (its newest by default). Nil
    /// writes the store at the bundle's own version, from its schema.
    public var schemas: URL?
    /// The version to write when ``schemas`` is given; nil for the newest.
    public var targetVersion: Int?
    /// Add the records to an existing store instead of creating one: objects
    /// whose uniqueness constraint matches one in the store update it (the
    /// importer's rule), the others are added with new keys.
    public var merges = false
    /// The bounds the zip must keep to (entry count, sizes, ratios).
    public var limits = ZipLimits()

    /// The defaults: a new store at the bundle's version.
    public init() {}
}
