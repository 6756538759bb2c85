import Foundation
import StrataCore
import StrataQuery
import StrataSchema
import StrataStore

/// Converts an app's Core Data mapping model (``XcodeMappingModel``, read
/// from a `.xcmappingmodel` or a `.cdm`) into a `strata-mapping/1` file
/// between two versions of its schema chain.
///
/// The versions are found as Core Data finds them: by the version hashes of
/// the entities the live entity mappings name (a `.cdm` stores them; a
/// `.xcmappingmodel`'s are computed from its model snapshots), each set a
/// subset of one version's hashes. The snapshot's paths break ties between
/// versions that hash alike.
///
/// Then each entity mapping becomes a rule with what Core Data's default
/// `NSEntityMigrationPolicy` would do, made explicit: the default copies
/// and relationship expressions Xcode generates at compile time, source
/// filters as `where`, renamed entities as rules that create objects, links
/// through `destinationInstancesForEntityMappingNamed:sourceInstances:` as
/// `"from"` paths, entities and properties no mapping carries as
/// `discard`s (or, for an entity the new version keeps, as a rule that
/// keeps none of its objects: Core Data migrates only what a mapping
/// fetches). Add mappings create nothing, as in Core Data. A mapping with a
/// custom policy class is converted with everything else and names the
/// class (``MappingPolicy``).
///
/// ```swift
/// let bundle = try XcodeModelReader().read(at: URL(fileURLWithPath: "MediaHistory.xcdatamodeld"))
/// let model = try XcodeMappingModelReader().read(at: URL(fileURLWithPath: "MediaHistory_v2_v3.xcmappingmodel"))
/// let converted = try MappingModelConverter(
///     versions: bundle.versions, versionFolders: bundle.versionFolders
/// ).convert(model)
/// try converted.data.write(to: folder.appending(path: converted.fileName))
/// print(converted.report)
/// ```
public struct MappingModelConverter {
    /// The schema chain's versions, oldest first.
    public let versions: [Model]
    /// The Xcode version folder each version was converted from
    /// (`Moody 2.xcdatamodel`), in the same order; empty when unknown.
    public let versionFolders: [String]

    /// A converter for one chain.
    ///
    /// - Parameters:
    ///   - versions: The schema chain's versions, oldest first.
    ///   - versionFolders: The Xcode version folder of each version, used
    ///     only to choose between versions whose hashes are alike.
    public init(versions: [Model], versionFolders: [String] = []) {
        self.versions = versions
        self.versionFolders = versionFolders
    }

    /// Converts `model`: finds its versions, builds the mapping file, checks
    /// it against both versions and reports what it does.
    ///
    /// - Parameters:
    ///   - model: The mapping model.
    ///   - from: The source version, when versions that hash alike leave
    ///     the choice open; it must still fit the model's hashes.
    ///   - to: The destination version, likewise.
    /// - Throws: ``MappingModelError`` with every problem, each naming the
    ///   mapping model, the entity mapping and the property.
    public func convert(_ model: XcodeMappingModel, from: Int? = nil, to: Int? = nil)
        throws(MappingModelError) -> ConvertedMappingModel
    {
        let (source, destination) = try match(model, from: from, to: to)
        var conversion = MappingModelConversion(
            model: model, source: source, destination: destination,
            chain: SchemaChain(versions: versions))
        return try conversion.run()
    }
}

/// A mapping model converted into a `strata-mapping/1` file.
public struct ConvertedMappingModel {
    /// The version the file reads.
    public var from: Int
    /// The version the file writes.
    public var to: Int
    /// The file's bytes (UTF-8 JSON, two-space indentation).
    public var data: Data
    /// The file, loaded back and checked against both versions.
    public var mapping: MigrationMapping
    /// What each entity mapping does.
    public var report: MappingModelReport

    /// `<from>-<to>.mapping.json`.
    public var fileName: String { MigrationMapping.fileName(from: from, to: to) }
}
