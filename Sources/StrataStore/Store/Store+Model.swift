import Foundation
import StrataCore
import StrataSchema

// MARK: - The model a store names

extension Store {
    /// The model Strata stored in the store's metadata (``StoredSchema``),
    /// checked: it decodes, validates and gives the store's own hashes.
    ///
    /// - Returns: The model, or nil when the store carries no stored schema
    ///   (Core Data wrote it, or Strata before it stored schemas).
    /// - Throws: ``StoreError`` (`corruptMetadata`) naming the
    ///   `StrataModelSchema` key when the value is not data, does not
    ///   inflate within ``StoredSchema/maximumInflatedSize``, is not a valid
    ///   schema, or disagrees with `NSStoreModelVersionHashes`.
    public func storedModel() throws(StoreError) -> Model? {
        if let blob = metadata.modelSchema {
            return try StoredSchema.unpack(blob, hashes: metadata.versionHashes, path: path)
        }
        if metadata.otherKeys[StoredSchema.key] != nil {
            throw StoreError(
                .corruptMetadata, path: path,
                message: "Z_METADATA.Z_PLIST: \(StoredSchema.key): expected data")
        }
        return nil
    }

    /// The model in Core Data's model cache (`Z_MODELCACHE`), named after
    /// Strata's model name key or else the store's file name (the cache
    /// knows no name; see ``ModelCache/decode(_:modelName:)``).
    ///
    /// - Returns: The model, or nil when the store has no model cache.
    /// - Throws: ``SQLiteError`` from reading the table; ``ModelCacheError``,
    ///   ``CompressionError`` or a property-list error for a cache that does
    ///   not decode.
    public func cachedModel() throws -> Model? {
        guard let content = try ModelCache.read(from: connection) else { return nil }
        let name = metadata.modelName ?? url.deletingPathExtension().lastPathComponent
        return try ModelCache.decode(content, modelName: name)
    }

    /// Finds the model that describes the store: the version of `chain`
    /// whose hashes are the store's when a chain is given; otherwise the
    /// stored schema (``storedModel()``), then Core Data's model cache
    /// (``cachedModel()``).
    ///
    /// A source that cannot be read, or a stored schema that disagrees
    /// with the store's hashes, is passed over and listed in
    /// ``StoreModelResolution/problems``; a store changed by Core Data
    /// after Strata wrote it still resolves through its fresh model cache.
    ///
    /// ```swift
    /// let model = try store.resolveModel().requiredModel()
    /// ```
    ///
    /// - Parameter chain: The versions named by the caller (`--schemas`),
    ///   if any. When given it decides: a store it does not describe is an
    ///   error, never a guess from the other sources.
    /// - Returns: The model (nil when nothing names one) and its source.
    /// - Throws: ``StoreError`` (`unknownVersion`) when `chain` is given and
    ///   no version of it has the store's hashes, naming the nearest one and,
    ///   when the store tells, the model it holds; ``SQLiteError`` when the
    ///   store cannot be read.
    public func resolveModel(schemas chain: SchemaChain? = nil) throws -> StoreModelResolution {
        if let chain { return try resolveModel(in: chain) }
        var problems: [StoreError] = []
        do throws(StoreError) {
            if let model = try storedModel() {
                return StoreModelResolution(path: path, model: model, source: .storedSchema)
            }
        } catch {
            problems.append(error)
        }
        do {
            if let model = try cachedModel() {
                return StoreModelResolution(
                    path: path, model: model, source: .modelCache, problems: problems)
            }
        } catch let error as SQLiteError {
            throw error
        } catch {
            problems.append(
                StoreError(
                    .corruptMetadata, path: path,
                    message: "Z_MODELCACHE is unreadable (\(error))"))
        }
        return StoreModelResolution(path: path, model: nil, source: .metadata, problems: problems)
    }

    /// The version of `chain` that matches the store, with an error that
    /// names what the store holds when none does.
    private func resolveModel(in chain: SchemaChain) throws -> StoreModelResolution {
        // Only to name differing properties in the error; never used instead.
        let stored = try? storedModel()
        let known = stored ?? (try? cachedModel())
        do {
            let model = try matchingVersion(in: chain, storeModel: known)
            return StoreModelResolution(path: path, model: model, source: .schema)
        } catch var error as StoreError where error.code == .unknownVersion {
            if let stored {
                error.message += "; the store holds \(stored.name) version \(stored.version)"
            } else if let name = metadata.modelName, let version = metadata.modelVersion {
                error.message += "; the store says it holds \(name) version \(version)"
            }
            throw error
        }
    }

    /// Stores `model` as the store's schema (``StoredSchema``) when the
    /// store does not carry exactly its text yet: for stores written before
    /// Strata stored schemas, or whose schema file was since edited in ways
    /// the hashes do not see (import keys, validation rules).
    ///
    /// Run it inside a write transaction. Nothing else in the metadata
    /// changes.
    ///
    /// - Parameter model: The version that describes the store; its hashes
    ///   must be the store's.
    /// - Returns: Whether the metadata was written.
    /// - Throws: ``StoreError`` (`unknownVersion`) when `model`'s hashes are
    ///   not the store's; ``SQLiteError`` when the update fails.
    @discardableResult
    public func updateStoredSchema(to model: Model) throws -> Bool {
        let differences = Store.differences(between: metadata.versionHashes, and: model)
        guard differences.isEmpty else {
            throw StoreError(
                .unknownVersion, path: path,
                message: "\(model.name) version \(model.version) does not describe the store; "
                    + "it differs in: \(differences.map(\.description).joined(separator: ", "))")
        }
        guard let blob = StoredSchema.pack(model), blob != metadata.modelSchema else {
            return false
        }
        var updated = metadata
        updated.modelSchema = blob
        updated.otherKeys[StoredSchema.key] = nil
        try writeMetadata(updated)
        return true
    }
}
