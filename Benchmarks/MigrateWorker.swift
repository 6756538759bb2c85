import Foundation
import Strata

/// Migrates a version-1 notes store to version 2 with ``Migrator``, as an
/// app would at launch. `--variant` is a ``MigrateBenchmark/Kind``: it says
/// whether a backup is kept and whether the custom step runs; lossy steps
/// (`keywords` removed) are accepted.
enum MigrateWorker {
    static func run(_ options: Worker.Options) throws {
        guard let kind = MigrateBenchmark.Kind(rawValue: options.variant) else {
            throw BenchError(.usage, "worker migrate: unknown --variant `\(options.variant)`")
        }
        let report = try Migrator(
            storeAt: options.store, schemas: options.schemas, options: kind.migrationOptions
        ).run()
        // MigrationStore.verify checks that no backup is left beside the store.
        guard report.finalVersion == 2 else {
            throw BenchError(
                .verification, "migration ended at version \(report.finalVersion)")
        }
    }
}
