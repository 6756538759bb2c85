import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Carries out one ``MigrationStage`` on a store so that a process killed at
/// any instant leaves the store at the stage's start or at its end:
/// in-place stages run in one transaction; copy stages work on a copy that
/// replaces the store in one `rename(2)`. Either way the stage's checks,
/// its new metadata and its journal entry commit with its data.
struct StageRunner {
    let stage: MigrationStage
    /// The stage's position (from 1) and the number of stages, for progress.
    let position: (index: Int, count: Int)
    let batchSize: Int
    let progress: (MigrationProgress) -> Void

    /// Runs an in-place stage on `store`.
    func runInPlace(on store: Store, journal: MigrationJournal) throws {
        let statements = stage.plan.orderedStatements
        let rows = try rowsToMove(store)
        let total = rows.values.reduce(0, +)
        var done: Int64 = 0
        report("starting", done, total)
        try store.connection.inTransaction(.immediate) {
            for (table, statement) in statements {
                try statement.execute(on: store.connection)
                if let moved = rows[table], statement.sql.hasPrefix("INSERT INTO") {
                    done += moved
                    report("filled \(table)", done, total)
                }
            }
            report("checking", done, total)
            try MigrationVerifier(store: store, model: stage.plan.destination)
                .verify(MigrationVerifier.scope(ofInPlace: stage.plan), stage: stage.name)
            try finish(store, journal: journal)
        }
        report("done", total, total)
    }

    /// Runs a copy stage: returns the store reopened at its new version.
    func runOnCopy(of store: Store, journal: MigrationJournal) throws -> Store {
        let url = store.url
        let work = url.deletingLastPathComponent()
            .appendingPathComponent(".\(url.lastPathComponent).strata-stage-\(stage.name)")
        Self.removeWorkFiles(work)
        defer { Self.removeWorkFiles(work) }  // Only leftovers remain after the rename.
        _ = try store.connection.walCheckpoint(truncate: true)
        try FileManager.default.copyItem(at: url, to: work)

        let total = try rowsToMove(store).values.reduce(0, +)
        let destination = try Store.open(at: work, mode: .readWrite)
        do {
            report("copying", 0, total)
            try destination.connection.inTransaction(.immediate) {
                for statement in stage.plan.statements {
                    try statement.execute(on: destination.connection)
                }
            }
            try destination.reloadBookkeeping()
            let source = try Store.open(at: url, mode: .readOnly)
            defer { try? source.close() }  // Read only; nothing to lose.
            var done: Int64 = 0
            if let mapping = stage.mapping {
                try destination.connection.inTransaction(.immediate) {
                    try mapping.apply(source: source, destination: destination, plan: stage.plan) {
                        entity, rowsDone in
                        report("mapping \(entity)", done + rowsDone, total)
                    }
                }
                done = total
            }
            if let custom = stage.customStep {
                let work = CustomStepWork(
                    source: try Context(store: source, model: stage.plan.source),
                    destination: try Context(store: destination, model: stage.plan.destination),
                    plan: stage.plan, batchSize: batchSize
                ) { entity, rowsDone in
                    report("custom step: \(entity)", rowsDone, total)
                }
                try custom.migrate(work)
            }
            report("checking", done, total)
            try destination.connection.inTransaction(.immediate) {
                // A mapping or a custom step may have written anything.
                let layout = StoreLayout(model: stage.plan.destination)
                let tables = layout.entityTables.map(\.name) + layout.joinTables.map(\.name)
                try MigrationVerifier(store: destination, model: stage.plan.destination)
                    .verify(.init(tables: Set(tables), properties: nil), stage: stage.name)
                try finish(destination, journal: journal)
            }
            try destination.close()
        } catch {
            try? destination.close()  // The stage's error is the one to report.
            throw error
        }

        // Swap: the old store must be closed with its WAL gone, or SQLite
        // would replay stale frames into the new file.
        try store.close()
        guard FileSystem.size(of: url.path + "-wal") == 0 else {
            throw MigrationError(
                .fileInTheWay,
                message: "\(url.relativePath)-wal still holds data after closing; another "
                    + "process has the store open. Close it and run again.")
        }
        try? FileManager.default.removeItem(atPath: url.path + "-shm")  // Rebuilt on open.
        guard rename(work.path, url.path) == 0 else {
            throw MigrationError(
                .fileInTheWay,
                message: "cannot move the migrated copy into place: "
                    + String(cString: strerror(errno)))
        }
        FileSystem.syncDirectory(of: url.path)
        report("done", total, total)
        return try Store.open(at: url, mode: .readWrite)
    }

    /// Writes the destination version's metadata and the journal entry, and
    /// drops the model cache, which describes the old version.
    private func finish(_ store: Store, journal: MigrationJournal) throws {
        try store.connection.execute("DROP TABLE IF EXISTS Z_MODELCACHE")
        var journal = journal
        journal.completedStages.append(stage.name)
        try store.writeMetadata(
            journal.stored(in: store.metadata.describing(stage.plan.destination)))
    }

    /// Rows of the old tables each rebuilt or created table is filled from,
    /// by the table's new name.
    private func rowsToMove(_ store: Store) throws -> [String: Int64] {
        var rows: [String: Int64] = [:]
        for change in stage.plan.tableChanges
        where change.strategy == .rebuild || change.strategy == .create {
            for source in change.sources where try store.connection.tableExists(source) {
                rows[change.table, default: 0] +=
                    try store.connection.scalar(
                        "SELECT COUNT(*) FROM \(SQLiteIdentifier.quoted(source))")?.int64Value ?? 0
            }
        }
        return rows
    }

    private func report(_ activity: String, _ done: Int64, _ total: Int64) {
        progress(
            MigrationProgress(
                stage: position.index, stageCount: position.count, stageName: stage.name,
                activity: activity, rowsDone: done, rowsTotal: total))
    }

    private static func removeWorkFiles(_ work: URL) {
        for suffix in ["", "-wal", "-shm", "-journal"] {
            try? FileManager.default.removeItem(atPath: work.path + suffix)  // Absent is fine.
        }
    }
}
