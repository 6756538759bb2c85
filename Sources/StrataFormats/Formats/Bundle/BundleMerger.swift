import Foundation
import StrataCore
import StrataSchema
import StrataStore

/// Adds the objects of an unarchived bundle (a scratch store at the same
/// schema version) to an existing store, by the importer's uniqueness rule:
/// an object whose entity's first uniqueness constraint matches an object
/// of the store updates that object (its attributes and to-one links take
/// the bundle's values); every other object is added under a new key
/// (after the store's `Z_MAX`). Links are carried over with the keys
/// translated; to-many join rows already there are kept.
///
/// The rows are merged by the store's ``RowMerger``, in one transaction,
/// and the store's references are checked before it commits.
package struct BundleMerger {
    let source: Store
    let destination: Store
    let model: Model
    /// The bundle's path, for messages.
    let path: String
    /// The attributes that find an existing object, by entity, instead of
    /// the entity's first uniqueness constraint (a Day One import matches
    /// entries by uuid, which the Diary does not constrain: entries written
    /// in Strata have none).
    var matchingKeys: [String: [String]] = [:]
    /// Metadata written to the store in the merge's transaction.
    var metadata: StoreMetadata?

    /// Every stored property (the memberwise initializer, for the other layers).
    package init(
        source: Store, destination: Store, model: Model, path: String,
        matchingKeys: [String: [String]] = [:]
    ) {
        self.source = source
        self.destination = destination
        self.model = model
        self.path = path
        self.matchingKeys = matchingKeys
    }

    /// Checks that the store is at the bundle's version, then merges.
    ///
    /// - Throws: ``BundleError`` `versionMismatch` or `invalidData`
    ///   (nothing is written); ``SQLiteError``.
    package func merge() throws {
        let hashes = destination.metadata.versionHashes
        guard
            model.entities.allSatisfy({ entity in
                hashes[entity.name] == model.versionHash(ofEntity: entity.name).map { Data($0) }
            }), hashes.count == model.entities.count
        else {
            throw BundleError(
                .versionMismatch, path: path,
                "\(destination.path) is not at version \(model.version) of \(model.name); "
                    + "migrate it first")
        }
        do {
            var merger = RowMerger(
                source: source, destination: destination, model: model,
                matchingKeys: matchingKeys)
            merger.metadata = metadata
            try merger.merge()
        } catch let error as RowMergeError {
            throw BundleError(.invalidData, path: path, error.message)
        }
    }
}
