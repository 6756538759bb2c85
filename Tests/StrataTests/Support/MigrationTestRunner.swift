import Foundation

@testable import Strata
@testable import StrataMigration
@testable import StrataSchema

/// The one way migration tests move a store file from one version to
/// another: through ``Migrator``, the executor users run.
enum MigrationTestRunner {
    /// Migrates the store at `url`, which must be at version `from`, to
    /// version `to` of `chain`, lossy steps accepted and no backup kept.
    static func migrate(storeAt url: URL, chain: SchemaChain, from: Int, to: Int) throws {
        var options = MigrationOptions()
        options.targetVersion = to
        options.acceptsLossySteps = true
        options.keepsBackup = false
        let migrator = Migrator(storeAt: url, chain: chain, options: options)
        let preview = try migrator.preview()
        guard preview.currentVersion == from else {
            throw MigrationError(
                .unknownStoreVersion,
                message: "the test expected version \(from), the store is at "
                    + "\(preview.currentVersion)")
        }
        try migrator.run()
    }
}
