import Foundation
import StrataCore
import StrataSchema

/// Strata's copy of a store's model inside the store: the schema version's
/// canonical `strata-schema/1` text (``SchemaEncoder``), raw DEFLATE
/// compressed, under the `StrataModelSchema` key of `Z_METADATA`'s plist.
///
/// Core Data ignores metadata keys it does not know, so a store carrying it
/// is still one Core Data opens without migrating; Strata reads it to
/// describe the store when no schema folder is given (``Store/storedModel()``).
/// The blob comes from a file, so it is untrusted input: it may inflate to at
/// most ``maximumInflatedSize`` bytes, must decode and validate as a schema,
/// and must give exactly the store's `NSStoreModelVersionHashes`.
///
/// ```swift
/// let blob = StoredSchema.pack(model)
/// let back = try StoredSchema.unpack(
///     blob!, hashes: store.metadata.versionHashes, path: store.path)
/// ```
public enum StoredSchema {
    /// The metadata key: `StrataModelSchema`.
    public static let key = "StrataModelSchema"

    /// The most bytes the stored text may inflate to (64 MiB). Real schemas
    /// are a few kilobytes; DEFLATE cannot expand more than about 1,000 to
    /// one, so this cap also bounds the work a hostile blob can cause.
    public static let maximumInflatedSize = 64 * 1024 * 1024

    /// The compressed canonical text of `model`.
    ///
    /// - Returns: The blob, or nil when the model holds a value with no JSON
    ///   form (an infinite or NaN bound or default, which only a converted
    ///   Xcode model can have): such a store then simply names no schema,
    ///   rather than failing to be created or migrated.
    public static func pack(_ model: Model) -> Data? {
        guard let text = try? SchemaEncoder().encodeData(model) else { return nil }
        // zlib only fails here when out of memory; the store then names no schema.
        return try? RawDeflate.deflate(text, level: 9)
    }

    /// The model in a stored blob, checked against the store's hashes.
    ///
    /// - Parameters:
    ///   - blob: The value of ``key``.
    ///   - hashes: The store's `NSStoreModelVersionHashes`.
    ///   - path: The store's path, for errors.
    /// - Returns: The model; its ``Model/versionHashes`` equal `hashes`.
    /// - Throws: ``StoreError`` (`corruptMetadata`) naming ``key`` when the
    ///   blob does not inflate (corrupt, or larger than
    ///   ``maximumInflatedSize``), is not a valid schema, or disagrees with
    ///   `hashes`.
    public static func unpack(
        _ blob: Data, hashes: [String: Data], path: String
    ) throws(StoreError) -> Model {
        func corrupt(_ message: String) -> StoreError {
            StoreError(
                .corruptMetadata, path: path, message: "Z_METADATA.Z_PLIST: \(key): \(message)")
        }
        let text: Data
        do {
            text = try RawDeflate.inflate(blob, limit: maximumInflatedSize)
        } catch {
            throw corrupt("the stored schema does not inflate (\(error))")
        }
        let file = key
        let model: Model
        do {
            model = try SchemaDecoder().decode(text, file: file)
        } catch {
            throw corrupt("the stored schema is not a valid schema: \(summary(of: error.issues))")
        }
        // Patterns are not compiled: that would load ICU for every command
        // reading a store whose model has one; a value checked against an
        // invalid one is refused then (AttributeCheck).
        let issues = SchemaValidator(compilesPatterns: false).validate(model, file: file)
        guard issues.isEmpty else {
            throw corrupt("the stored schema is not a valid schema: \(summary(of: issues))")
        }
        let differences = Store.differences(between: hashes, and: model)
        guard differences.isEmpty else {
            let list = differences.map(\.description).joined(separator: ", ")
            throw corrupt(
                "the stored schema (\(model.name) version \(model.version)) disagrees with the "
                    + "store's hashes (NSStoreModelVersionHashes) in: \(list); not trusting it")
        }
        return model
    }

    /// The first few issues on one line: a hostile blob may hold thousands.
    private static func summary(of issues: [SchemaIssue]) -> String {
        let shown = issues.prefix(3).map(\.description).joined(separator: "; ")
        return issues.count > 3 ? "\(shown); and \(issues.count - 3) more" : shown
    }
}
