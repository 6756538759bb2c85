import Foundation
import StrataSchema

// MARK: - Rewriting the metadata

extension Store {
    /// Replaces the store's `Z_METADATA` plist with `metadata`, keeping
    /// `Z_UUID` as given there.
    ///
    /// Run it inside the transaction whose changes the metadata describes,
    /// so that the two commit together: a migration step writes its new
    /// version hashes and its journal entry in the same commit as its tables.
    ///
    /// - Throws: ``SQLiteError`` when the update fails.
    public func writeMetadata(_ metadata: StoreMetadata) throws {
        try connection.execute(
            "UPDATE Z_METADATA SET Z_UUID = ?, Z_PLIST = ? WHERE Z_VERSION = 1",
            [.text(metadata.uuid), .blob(try metadata.plistData())])
        self.metadata = metadata
    }

    /// Reads `Z_METADATA` and `Z_PRIMARYKEY` again, after SQL that changed
    /// them behind the store's back (a migration renumbering entities).
    ///
    /// - Throws: ``StoreError`` as ``open(at:mode:)`` does for bad bookkeeping.
    public func reloadBookkeeping() throws {
        let (metadata, entities) = try Store.readBookkeeping(connection, path: path)
        self.metadata = metadata
        self.entityRecords = entities
    }
}

extension StoreMetadata {
    /// This metadata describing `model` instead: its version hashes,
    /// identifiers, digest and checksum, and Strata's model keys (the stored
    /// schema included); the UUID and every other key (an app's own
    /// metadata) stay.
    public func describing(_ model: Model) -> StoreMetadata {
        var copy = self
        let fresh = StoreMetadata(model: model)
        copy.versionHashes = fresh.versionHashes
        copy.versionIdentifiers = fresh.versionIdentifiers
        // Strata wrote the digest and checksum keys, so it claims their framework.
        copy.frameworkVersion = fresh.frameworkVersion
        copy.hashesDigest = fresh.hashesDigest
        copy.checksum = fresh.checksum
        copy.modelName = fresh.modelName
        copy.modelVersion = fresh.modelVersion
        copy.modelSchema = fresh.modelSchema
        copy.otherKeys[StoredSchema.key] = nil  // A stray value of another type.
        return copy
    }
}
