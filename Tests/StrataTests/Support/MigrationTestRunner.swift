import Foundation

@testable import Strata

/// The one way migration tests move a store file from one version to
/// another, so that the executor can take over from this stand-in without
/// any test changing.
enum MigrationTestRunner {
    /// Migrates the store at `url` from version `from` to version `to` of
    /// `chain`: runs the plan's statements and rewrites the metadata to the
    /// newer version, all in one transaction (nothing changes on failure).
    ///
    /// This stand-in asks no acceptance of lossy steps and writes no
    /// bookkeeping beyond `Z_METADATA`.
    static func migrate(storeAt url: URL, chain: SchemaChain, from: Int, to: Int) throws {
        let plan = try MigrationPlan(chain: chain, from: from, to: to)
        let store = try Store.open(at: url, mode: .readWrite)
        do {
            try store.connection.inTransaction {
                for statement in plan.statements {
                    try store.connection.execute(
                        statement.sql,
                        statement.arguments.map {
                            ColumnValueCodec.encode($0, externalStorage: false)
                        })
                }
                // The new version's hashes; the store keeps its UUID and
                // any keys an app put in its metadata.
                var metadata = StoreMetadata(model: plan.destination)
                metadata.uuid = store.metadata.uuid
                metadata.otherKeys = store.metadata.otherKeys
                try store.connection.execute(
                    "UPDATE Z_METADATA SET Z_PLIST = ? WHERE Z_VERSION = 1",
                    [.blob(try metadata.plistData())])
            }
        } catch {
            try? store.close()  // The migration's error is the one to report.
            throw error
        }
        try store.close()
    }
}
