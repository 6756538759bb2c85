import Foundation
import StrataContext
import StrataCore
import StrataStore

/// Carries out one ``MigrationStage`` on a store so that a process killed at
/// any instant leaves the store at the stage's start or at its end:
/// in-place stages run in one transaction; copy stages work on a copy whose
/// pages are written back in one transaction. Either way the stage's checks,
/// its new metadata and its journal entry commit with its data.
struct StageRunner {
    let stage: MigrationStage
    /// The stage's position (from 1) and the number of stages, for progress.
    let position: (index: Int, count: Int)
    let batchSize: Int
    /// Whether the stage's result must hold every required value (off for
    /// ``MigrationOptions/asCoreData``).
    var checksRequiredValues = true
    let progress: (MigrationProgress) -> Void
    /// Runs last before the stage commits to the store (a backup made while
    /// the stage worked is waited for here); what it throws rolls it back.
    var beforeCommit: () throws -> Void = {}
    /// Whether the stage's commit records it in the run's journal. The last
    /// stage of a run without a backup commits the finished metadata
    /// instead: its commit ends the run, so no later step needs the journal,
    /// and one commit (and its flush) fewer is written.
    var writesJournal = true

    /// Runs an in-place stage on `store`.
    func runInPlace(on store: Store, journal: MigrationJournal) throws {
        let plan = try stage.plan.fitted(to: store.connection, path: store.path)
        let statements = plan.orderedStatements
        let rows = try rowsToMove(store, plan)
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
            try MigrationVerifier(
                store: store, model: stage.plan.destination,
                checksRequiredValues: checksRequiredValues
            ).verify(MigrationVerifier.scope(ofInPlace: plan), stage: stage.name)
            try finish(store, journal: journal)
            try beforeCommit()
        }
        report("done", total, total)
    }

    /// Runs a copy stage: the plan's SQL runs on a private work copy, the
    /// mapping or custom step fills it from `store` (read, never written),
    /// and the finished copy's pages are written back into `store` in one
    /// transaction with SQLite's online backup API.
    ///
    /// Writing back, rather than renaming the copy over the file, keeps the
    /// store's inode: a connection another process holds open sees the new
    /// content instead of writing on into a file nobody reads again. A
    /// write another connection commits while the stage works stops it
    /// before anything is written back (``MigrationError`` `concurrentWrite`).
    func runOnCopy(of store: Store, journal: MigrationJournal) throws {
        let url = store.url
        let work = url.deletingLastPathComponent()
            .appendingPathComponent(".\(url.lastPathComponent).strata-stage-\(stage.name)")
        Self.removeWorkFiles(work)
        defer { Self.removeWorkFiles(work) }
        let total = try rowsToMove(store, stage.plan.fitted(to: store.connection, path: store.path))
            .values.reduce(0, +)
        let startVersion = try store.connection.dataVersion
        let destination = try Self.copy(store, to: work)
        do {
            report("copying", 0, total)
            let plan = try stage.plan.fitted(to: destination.connection, path: store.path)
            try destination.connection.inTransaction(.immediate) {
                for statement in plan.statements {
                    try statement.execute(on: destination.connection)
                }
            }
            try destination.reloadBookkeeping()
            // The store is the mapping's source: read only while it is.
            try store.connection.setPragma("query_only", "1")
            defer { try? store.connection.setPragma("query_only", "0") }  // Reset below too.
            var done: Int64 = 0
            if let mapping = stage.mapping {
                try destination.connection.inTransaction(.immediate) {
                    try mapping.apply(source: store, destination: destination, plan: stage.plan) {
                        entity, rowsDone in
                        report("mapping \(entity)", done + rowsDone, total)
                    }
                }
                done = total
            }
            if let custom = stage.customStep {
                let work = CustomStepWork(
                    // The destination gets the new version's hashes when the stage ends.
                    source: try Context(unverified: store, model: stage.plan.source),
                    destination: try Context(
                        unverified: destination, model: stage.plan.destination),
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
                try MigrationVerifier(
                    store: destination, model: stage.plan.destination,
                    checksRequiredValues: checksRequiredValues
                ).verify(.init(tables: Set(tables), properties: nil), stage: stage.name)
                try finish(destination, journal: journal)
            }
            try store.connection.setPragma("query_only", "0")

            report("writing back", done, total)
            guard try store.connection.dataVersion == startVersion else {
                throw MigrationError(
                    .concurrentWrite,
                    message: "\(store.path): another connection wrote to the store while stage "
                        + "\(stage.name) worked on its copy; the stage was not applied (the "
                        + "store is as it was before it). Close other programs using the "
                        + "store and run again")
            }
            try beforeCommit()
            try destination.connection.copyContents(to: store.connection)
            try destination.close()
        } catch {
            try? destination.close()  // The stage's error is the one to report.
            throw error
        }
        try store.reloadBookkeeping()
        // The write-back went through the WAL; fold it into the file while
        // nobody reads (another reader just makes this a partial checkpoint).
        _ = try? store.connection.walCheckpoint(truncate: true)
        report("done", total, total)
    }

    /// A private copy of `store` (read through its WAL) at `work`, opened.
    ///
    /// The copy is scratch: a run killed while it works leaves the store as
    /// it was and the copy is removed by the next run, so nothing written to
    /// it is flushed. In WAL mode its log is never folded into its file
    /// either: the write-back reads the copy through its log, so folding it
    /// would only write every changed page a second time. Transactions and
    /// rollbacks on the copy still work as on any store.
    private static func copy(_ store: Store, to work: URL) throws -> Store {
        try store.connection.copyDatabase(to: work.path)
        let copy = try Store.open(at: work, mode: .readWrite)
        do {
            try copy.connection.setPragma("synchronous", "OFF")
            if try copy.connection.journalMode == .wal {
                try copy.connection.setPragma("wal_autocheckpoint", "0")
                try copy.connection.setCheckpointsOnClose(false)
            }
        } catch {
            try? copy.close()
            throw error
        }
        return copy
    }

    /// Writes the destination version's metadata and the journal entry, and
    /// drops the model cache, which describes the old version.
    private func finish(_ store: Store, journal: MigrationJournal) throws {
        try store.connection.execute("DROP TABLE IF EXISTS Z_MODELCACHE")
        let metadata = store.metadata.describing(stage.plan.destination)
        guard writesJournal else {
            try store.writeMetadata(MigrationJournal.removed(from: metadata))
            return
        }
        var journal = journal
        journal.completedStages.append(stage.name)
        try store.writeMetadata(journal.stored(in: metadata))
    }

    /// Rows of the old tables each rebuilt or created table is filled from,
    /// by the table's new name.
    private func rowsToMove(_ store: Store, _ plan: MigrationPlan) throws -> [String: Int64] {
        var rows: [String: Int64] = [:]
        for change in plan.tableChanges
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

    /// Removes the work files of copy stages a killed run left beside the
    /// store at `url` (the caller holds the store's lock, so none is in use).
    /// A run killed after a stage's write-back committed, but before it
    /// removed its copy, leaves one even when the store is up to date.
    static func removeLeftoverWorkFiles(of url: URL) {
        let directory = url.deletingLastPathComponent()
        let prefix = ".\(url.lastPathComponent).strata-stage-"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        for name in names where name.hasPrefix(prefix) {
            try? FileManager.default.removeItem(at: directory.appendingPathComponent(name))
        }
    }

    private static func removeWorkFiles(_ work: URL) {
        for suffix in ["", "-wal", "-shm", "-journal", ".strata-lock"] {
            try? FileManager.default.removeItem(atPath: work.path + suffix)  // Absent is fine.
        }
    }
}
