import Foundation
import Strata

/// Migrating a store of N generated notes (the predicate-fetch corpus, at
/// version 1 of `Schemas/Notes`) to a version 2: Strata's ``Migrator`` in a
/// worker against hand-written SQL doing the same change in the `sqlite3`
/// shell, in one transaction.
///
/// Before every run each side gets a fresh copy of the cached version-1
/// store (untimed). The peer ends with the same `Z_METADATA` row Strata
/// writes, precomputed (untimed) by migrating an empty store that carries
/// the big store's metadata, and bound literally: the shell cannot compute
/// version hashes.
struct MigrateBenchmark: Benchmark {
    /// What is migrated, and how.
    enum Kind: String, Sendable, CaseIterable {
        /// The fused rebuild (`pinned` added, `body` → `text`, `keywords`
        /// removed), no backup.
        case inferred
        /// The same with the default backup (a clone of the file, made
        /// before the rebuild, which loses `keywords`).
        case inferredBackup = "inferred-backup"
        /// Only an optional attribute added, no backup.
        case addOptional = "add-optional"
        /// The same with the default backup on: none is made, since the
        /// stage only adds.
        case addOptionalBackup = "add-optional-backup"
        /// A required `summary` filled by a custom step from every title
        /// with the batch API (`CustomStepWork.update`; a copy stage), no
        /// backup.
        case customStep = "custom-step"
        /// The same step written with objects
        /// (`CustomStepWork.forEachSourceObject`).
        case customStepObjects = "custom-step-objects"

        /// The chain's version 2.
        var variant: MigrationChain.Variant {
            switch self {
            case .inferred, .inferredBackup: .rebuild
            case .addOptional, .addOptionalBackup: .addOptional
            case .customStep, .customStepObjects: .required
            }
        }

        /// The figures the run is meant to reach: with the backup on, its
        /// cost next to nothing (issue 25: a clone, and none for a stage that
        /// only adds); the rebuild within 1.2x of the shell, the batch custom
        /// step within 3x of the shell's `UPDATE` (issue 32), the object one's
        /// peak RSS under 150 MB (issue 6).
        var targets: [BenchTarget] {
            switch self {
            case .inferred: [BenchTarget(figure: .time(against: 1), limit: 1.2)]
            case .inferredBackup: [BenchTarget(figure: .time(against: 1), limit: 1.1)]
            case .addOptional: []
            case .addOptionalBackup: [BenchTarget(figure: .time(against: 1), limit: 3)]
            case .customStep: [BenchTarget(figure: .time(against: 1), limit: 3)]
            case .customStepObjects:
                [BenchTarget(figure: .peakMegabytes(of: 0), limit: 150, inclusive: false)]
            }
        }

        /// Whether the default backup is kept during the run.
        var keepsBackup: Bool { self == .inferredBackup || self == .addOptionalBackup }

        /// The options the Strata side runs with.
        var migrationOptions: MigrationOptions {
            var options = MigrationOptions()
            options.keepsBackup = keepsBackup
            // Removing `keywords` is lossy: the run acknowledges it.
            options.acceptsLossySteps = true
            if self == .customStep { options.customSteps[1] = TitleSummaryBatchStep() }
            if self == .customStepObjects { options.customSteps[1] = TitleSummaryStep() }
            return options
        }
    }

    let kind: Kind
    var name: String { "migrate-\(kind.rawValue)" }
    var summary: String {
        switch kind {
        case .inferred: "rebuild (add, rename, remove) via Migrator vs sqlite3 SQL (issue 6)"
        case .inferredBackup: "the same rebuild with Migrator's backup copy on"
        case .addOptional: "add an optional attribute (ADD COLUMN) vs sqlite3"
        case .addOptionalBackup: "the same with Migrator's backup copy on"
        case .customStep: "a batch custom step setting every note's summary vs sqlite3 UPDATE"
        case .customStepObjects: "the same custom step written with objects vs sqlite3 UPDATE"
        }
    }
    let defaultRows = 1_000_000

    /// The peer's SQL before the metadata update, in one transaction.
    var peerSQL: String {
        switch kind.variant {
        case .rebuild:
            // Strata's CREATE TABLE text, so both tables read the same in
            // sqlite_master; `date` is required, so a plain copy suffices.
            """
            CREATE TABLE "strata_new_ZNOTE" ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, \
            Z_OPT INTEGER, ZPINNED INTEGER, ZDATE TIMESTAMP, ZTEXT VARCHAR, ZTITLE VARCHAR );
            INSERT INTO "strata_new_ZNOTE" (Z_PK, Z_ENT, Z_OPT, ZPINNED, ZDATE, ZTEXT, ZTITLE)
              SELECT Z_PK, Z_ENT, Z_OPT, 0, ZDATE, ZBODY, ZTITLE FROM ZNOTE;
            DROP TABLE ZNOTE;
            ALTER TABLE "strata_new_ZNOTE" RENAME TO ZNOTE;
            CREATE INDEX Z_Note_date ON ZNOTE (ZDATE COLLATE BINARY ASC);
            """
        case .addOptional:
            "ALTER TABLE ZNOTE ADD COLUMN ZSUMMARY VARCHAR;"
        case .required:
            // A save of a changed object bumps its Z_OPT, as Core Data does.
            """
            ALTER TABLE ZNOTE ADD COLUMN ZSUMMARY VARCHAR;
            UPDATE ZNOTE SET ZSUMMARY = 'About ' || ZTITLE, Z_OPT = Z_OPT + 1;
            """
        }
    }

    /// The columns of version 2's `ZNOTE`, for comparing the two results.
    var columns: String {
        switch kind.variant {
        case .rebuild: "Z_PK, Z_ENT, Z_OPT, ZPINNED, ZDATE, ZTEXT, ZTITLE"
        case .addOptional, .required:
            "Z_PK, Z_ENT, Z_OPT, ZDATE, ZTITLE, ZBODY, ZKEYWORDS, ZSUMMARY"
        }
    }

    func plan(in environment: BenchEnvironment) throws -> BenchPlan {
        let rows = environment.corpus.rows
        let corpus = try NoteCorpus.prepare(
            rows: rows, packageRoot: environment.packageRoot,
            cache: environment.packageRoot.appendingPathComponent("Benchmarks/corpus"))
        let workspace = environment.workspace
        let schemas = try MigrationChain.write(
            kind.variant, packageRoot: environment.packageRoot, into: workspace)
        let chain = try SchemaChain.load(directory: schemas)
        let strataStore = MigrationStore(
            url: workspace.appendingPathComponent("strata.sqlite"), original: corpus.store,
            chain: chain)
        let peerStore = MigrationStore(
            url: workspace.appendingPathComponent("peer.sqlite"), original: corpus.store,
            chain: chain)

        let metadata = try MigrationStore.migratedMetadataSQL(
            of: corpus.store, chain: chain, options: kind.migrationOptions,
            scratch: workspace.appendingPathComponent("metadata.sqlite"))
        let sqlFile = workspace.appendingPathComponent("peer.sql")
        let script = [
            "BEGIN IMMEDIATE;", peerSQL, "DROP TABLE IF EXISTS Z_MODELCACHE;", metadata,
            "COMMIT;",
        ]
        try script.joined(separator: "\n").write(to: sqlFile, atomically: true, encoding: .utf8)
        let sqlite3 = try ChildCommand.locate("sqlite3", hint: "install it with `make deps`")
        guard !sqlFile.path.contains("\"") else {
            throw BenchError(.setup, "the workspace path may not contain a double quote")
        }

        let strata = Contender(
            title: kind.keepsBackup ? "Migrator.run(), backup" : "Migrator.run(), no backup",
            prepareRun: {
                try strataStore.reset()
                return ChildCommand(
                    executable: environment.executable,
                    arguments: [
                        "--worker", "migrate", "--store", strataStore.url.path, "--input",
                        corpus.store.path, "--schemas", schemas.path, "--variant",
                        kind.rawValue,
                    ])
            },
            verify: { try strataStore.verify(rows: rows) })
        let peer = Contender(
            title: "sqlite3 shell, hand-written SQL",
            prepareRun: {
                try peerStore.reset()
                return ChildCommand(
                    executable: sqlite3,
                    arguments: ["-bail", peerStore.url.path, ".read \"\(sqlFile.path)\""])
            },
            verify: { try peerStore.verify(rows: rows) })
        return BenchPlan(
            strata: strata, peer: peer,
            compare: { try strataStore.verifySame(as: peerStore, columns: columns) },
            targets: kind.targets)
    }
}
