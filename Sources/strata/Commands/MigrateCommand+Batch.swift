import Foundation
import Strata

extension MigrateCommand {
    /// Migrates every store ``batch`` names, ``jobs`` at a time, each on
    /// its own (its own lock, backup and journal), one result per store as
    /// it ends; a store that is refused or fails never stops the others.
    ///
    /// - Throws: A schema or mapping error before any store is touched (no
    ///   store's fault, so no store's line); ``CommandFailure`` at the end
    ///   when a store did not end migrated or up to date.
    func runBatch() throws {
        // The chain and its mapping files, checked once for the whole run
        // (the path a migrator is made for plays no part in loading them).
        let folder = URL(fileURLWithPath: schemas)
        _ = try StoreActivity.run(schemas, "read the schemas") {
            try Migrator(storeAt: folder, schemas: folder)
        }
        let stores = StoreBatch(paths: batch)
        let output = StoreBatchOutput(
            total: stores.entries.count, json: json, dryRun: dryRun, forceProgress: forceProgress)
        let command = self
        WorkerPool.run(
            width: jobs ?? ProcessInfo.processInfo.activeProcessorCount,
            count: stores.entries.count
        ) { next in
            // Each thread loads the schemas once, for its first store, and
            // keeps them: nothing loaded is shared between threads.
            var loaded: Migrator?
            while let index = next() {
                output.report(
                    command.migrate(stores.entries[index], loaded: &loaded, output: output))
            }
        }
        try output.finish()
    }

    /// Migrates (or, with `--dry-run`, plans and rehearses) one store of a
    /// batch and says how it ended; never throws.
    private func migrate(
        _ entry: StoreBatch.Entry, loaded: inout Migrator?, output: StoreBatchOutput
    ) -> StoreMigrationResult {
        let start = DispatchTime.now()
        var result = StoreMigrationResult(path: entry.path, dryRun: dryRun)
        do {
            if let problem = entry.problem { throw problem }
            let url = URL(fileURLWithPath: entry.path)
            let options = migrationOptions(for: entry.path, announce: output.note)
            let migrator =
                try loaded.map {
                    Migrator(
                        storeAt: url, chain: $0.chain, mappingFiles: $0.mappingFiles,
                        options: options)
                }
                ?? Migrator(storeAt: url, schemas: URL(fileURLWithPath: schemas), options: options)
            loaded = migrator
            try StoreActivity.run(
                entry.path, dryRun ? "plan the migration of the store" : "migrate the store"
            ) {
                if dryRun {
                    result.record(try migrator.preview())
                } else {
                    result.record(try migrator.run())
                }
            }
        } catch {
            result.record(error)
        }
        let nanoseconds = DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds
        result.seconds = (Double(nanoseconds) / 1e6).rounded() / 1e3
        return result
    }
}
