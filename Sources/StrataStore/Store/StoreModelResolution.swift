import StrataSchema

/// The model that describes a store, where it came from, and the sources
/// passed over on the way (``Store/resolveModel(schemas:)``).
public struct StoreModelResolution: Sendable {
    /// The store's path as the caller gave it.
    public var path: String
    /// The model, or nil when nothing names one.
    public var model: Model?
    /// Where ``model`` came from: ``StoreInfo/ModelSource/metadata`` when
    /// there is none.
    public var source: StoreInfo.ModelSource
    /// Sources that could not be used, in the order tried: a stored schema
    /// that is corrupt or disagrees with the store's hashes, a model cache
    /// that does not decode. Show them as warnings when a model was found.
    public var problems: [StoreError] = []

    /// Creates a resolution.
    public init(
        path: String, model: Model?, source: StoreInfo.ModelSource, problems: [StoreError] = []
    ) {
        self.path = path
        self.model = model
        self.source = source
        self.problems = problems
    }

    /// The model, or the reason there is none.
    ///
    /// - Throws: ``StoreError``: the one problem when a single source failed,
    ///   `corruptMetadata` listing them when several did, or `noModel` when
    ///   the store names no model at all.
    public func requiredModel() throws(StoreError) -> Model {
        if let model { return model }
        switch problems.count {
        case 0:
            throw StoreError(
                .noModel, path: path,
                message: "the store names no model: it has neither Strata's stored schema "
                    + "(\(StoredSchema.key)) nor Core Data's model cache (Z_MODELCACHE)")
        case 1:
            throw problems[0]
        default:
            throw StoreError(
                .corruptMetadata, path: path,
                message: problems.map(\.message).joined(separator: "; "))
        }
    }
}
