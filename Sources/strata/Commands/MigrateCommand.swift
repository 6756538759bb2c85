import Foundation
import Strata

#if canImport(Glibc)
    import Glibc
#endif

/// `strata migrate STORE --schemas DIR [--to N] [--dry-run]`: upgrade a store
/// stage by stage, resumably; or, with `--dry-run`, show the plan and the
/// preflight without touching the file. Given a folder or several stores,
/// it migrates each on its own, `--jobs` at a time (``runBatch()``).
struct MigrateCommand: Command {
    static let name = "migrate"
    static let abstract = "Upgrade a store to a newer schema version, step by step, resumably."
    static let usage = """
        USAGE: strata migrate <store> --schemas <dir> [--to <n>] [--dry-run] [--json]
                              [--no-backup] [--accept-lossy] [--as-core-data]
                              [--wait <seconds>] [--progress]
               strata migrate <folder|store>... --schemas <dir> [--jobs <n>] [options]

        ARGUMENTS:
          <store>            The store to upgrade (Strata's or Core Data's).
          <folder|store>...  Several stores, or folders of stores: each is
                             migrated on its own (its own lock, backup and
                             journal), and one refused or failed never stops
                             the others.

        OPTIONS:
          --schemas <dir>    The model folder: versions <n>.json and mapping files
                             <from>-<to>.mapping.json.
          --to <n>           The version to reach (default: the newest).
          --dry-run          Print the plan with row counts and the data-aware
                             preflight, and rehearse the run on a private copy
                             in the temporary folder; the store stays
                             byte-identical.
          --json             Print the plan (dry run) or the result as JSON; for
                             several stores, one JSON object per line per store.
          --jobs <n>         How many of several stores migrate at once
                             (default: the number of processors).
          --no-backup        Do not keep <store>.strata-backup-v<n> while migrating
                             (made before the first stage that can lose data
                             when a stage follows it; a run whose only lossy
                             stage is its last, or that only adds tables,
                             columns or indexes, needs none).
          --accept-lossy     Let lossy steps run that no mapping acknowledges.
          --as-core-data     Migrate as Core Data's lightweight migration would:
                             accept every loss and leave required values nothing
                             supplies empty; each accepted one is listed with its
                             count.
          --wait <seconds>   How long to wait while another process migrates or
                             saves to the store (default 60; 0 refuses at once).
          --progress         Report progress on stderr even when it is not a terminal.

        A run holds <store>.strata-lock for its whole length: a second migrate waits
        (then usually finds the store up to date) and saves wait for it. A killed
        run leaves the store at the end of its last finished stage; run the same
        command again to go on. Exit status: 0 when migrated (or, with --dry-run,
        when the migration could run), 1 when refused or failed, 64 for bad usage.

        Several stores: a folder stands for the files directly in it, except
        hidden files, -wal, -shm and -journal files and Strata's lock and backup
        files; a file there that is not a store is refused on its own line. Each
        store ends migrated, up-to-date, refused (left as it was: not a store,
        another model, locked, a loss nothing resolves) or failed (damaged, a
        stage rolled back), reported as it ends; exit status 0 only when every
        store ended migrated or up to date.
        """

    var store: String
    /// The paths given when they are more than one or a folder: each store
    /// is migrated on its own (``runBatch()``); empty for one store.
    var batch: [String] = []
    var jobs: Int?
    var schemas: String
    var to: Int?
    var dryRun: Bool
    var json: Bool
    var noBackup: Bool
    var acceptLossy: Bool
    var asCoreData = false
    var forceProgress: Bool
    var wait: Int?

    static func parse(_ arguments: inout ArgumentList) throws -> Self {
        guard let schemas = try arguments.option("--schemas") else {
            throw UsageError("missing '--schemas <dir>'", command: Self.self)
        }
        let command = Self(
            store: "", schemas: schemas, to: try arguments.integerOption("--to"),
            dryRun: arguments.flag("--dry-run"), json: arguments.flag("--json"),
            noBackup: arguments.flag("--no-backup"), acceptLossy: arguments.flag("--accept-lossy"),
            forceProgress: arguments.flag("--progress"), wait: try arguments.integerOption("--wait")
        )
        var parsed = command
        parsed.asCoreData = arguments.flag("--as-core-data")
        parsed.jobs = try arguments.integerOption("--jobs")
        let given = try arguments.positional("<store>")
        var more: [String] = []
        while let path = arguments.optionalPositional() { more.append(path) }
        if more.isEmpty && !StoreBatch.isFolder(given) {
            parsed.store = try ArgumentList.storePath(resolving: given)
        } else {
            parsed.batch = [given] + more
        }
        try arguments.finish()
        return parsed
    }

    func validate() throws {
        if let to, to < 1 {
            throw UsageError("'--to' must be 1 or more", command: Self.self)
        }
        if let wait, wait < 0 {
            throw UsageError("'--wait' must be 0 or more", command: Self.self)
        }
        if let jobs, jobs < 1 {
            throw UsageError("'--jobs' must be 1 or more", command: Self.self)
        }
    }

    func run() throws {
        guard batch.isEmpty else { return try runBatch() }
        try StoreActivity.run(
            store, dryRun ? "plan the migration of the store" : "migrate the store"
        ) {
            try migrate()
        }
    }

    private func migrate() throws {
        let options = migrationOptions(for: store, announce: { Terminal.error($0) })
        let migrator = try Migrator(
            storeAt: URL(fileURLWithPath: store), schemas: URL(fileURLWithPath: schemas),
            options: options)
        if dryRun {
            let preview = try migrator.preview()
            Terminal.output(
                json
                    ? try JSONOutput.encode(MigrationPreviewJSON(preview))
                    : MigrationText.render(preview))
            if !preview.blockingFindings.isEmpty {
                throw CommandFailure(
                    message: "the migration would be refused: "
                        + "\(preview.blockingFindings.count) blocking finding(s); nothing was changed"
                )
            }
            return
        }
        let bar = ProgressLine(enabled: forceProgress || isatty(STDERR_FILENO) == 1)
        let report = try migrator.run { bar.show($0) }
        bar.finish()
        Terminal.output(
            json ? try JSONOutput.encode(MigrationReportJSON(report)) : MigrationText.render(report)
        )
    }

    /// The options the command line sets, for a run on `store`; a wait for
    /// its lock is announced through `announce`.
    func migrationOptions(
        for store: String, announce: @escaping (String) -> Void
    ) -> MigrationOptions {
        var options = MigrationOptions()
        options.targetVersion = to
        options.keepsBackup = !noBackup
        options.acceptsLossySteps = acceptLossy
        options.asCoreData = asCoreData
        options.reportsRowCounts = true  // The result lists objects per entity.
        let wait = self.wait ?? Int(options.lockTimeout)
        options.lockTimeout = TimeInterval(wait)
        options.waitingForLock = {
            announce(
                "\(store): another process is migrating or saving to the store; waiting for it "
                    + "(up to \(wait) s)")
        }
        return options
    }
}
