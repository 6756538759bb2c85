import Foundation
import StrataCore
import StrataSchema
import StrataStore

/// Moves a store from the version it is at to a newer version of its schema
/// chain, stage by stage, so that a process killed at any moment leaves a
/// store that opens at a stage boundary and a re-run goes on from there.
///
/// A run: detects the store's version from its hashes; refuses unknown,
/// newer-than-known and downgrade requests, stores whose tables do not fit
/// their version, and every lossy or needs-mapping step nothing resolves,
/// before writing anything (see ``preview()``); keeps a backup copy before
/// the first stage that can lose something; runs each stage
/// (``MigrationStage``) with its checks, new metadata and journal entry in
/// one commit; removes the backup after the last stage.
///
/// ```swift
/// let migrator = try Migrator(storeAt: url, schemas: URL(fileURLWithPath: "Schemas/Diary"))
/// let preview = try migrator.preview()          // the dry run: writes nothing
/// let report = try migrator.run { print($0.activity, $0.rowsDone, $0.rowsTotal) }
/// ```
public final class Migrator {
    /// The store's location.
    public let storeURL: URL
    /// The model's versions.
    public let chain: SchemaChain
    /// Mapping files by the version they start from (the longest span,
    /// when several files start at one version).
    public var mappings: [Int: any MigrationMappingApplying] {
        mappingFiles.compactMapValues(\.first)
    }
    /// Every mapping file by the version it starts from, longest span
    /// first: the route picks among spans that start at one version
    /// (``MigrationRoute``).
    package let mappingFiles: [Int: [any MigrationMappingApplying]]
    /// How the run goes.
    public let options: MigrationOptions

    /// A migrator for the store at `url` and the chain (and mapping files)
    /// in `directory`.
    ///
    /// - Throws: ``SchemaError`` for a bad chain, ``MigrationError``
    ///   (`invalidMapping`) for a bad mapping file.
    public convenience init(
        storeAt url: URL, schemas directory: URL, options: MigrationOptions = MigrationOptions()
    ) throws {
        let chain = try SchemaChain.load(directory: directory)
        self.init(
            storeAt: url, chain: chain,
            mappingFiles: try MappingFileLoader.load(directory: directory, chain: chain),
            options: options)
    }

    /// A migrator for the store at `url`, with the chain and mappings given.
    public convenience init(
        storeAt url: URL, chain: SchemaChain,
        mappings: [Int: any MigrationMappingApplying] = [:],
        options: MigrationOptions = MigrationOptions()
    ) {
        self.init(
            storeAt: url, chain: chain, mappingFiles: mappings.mapValues { [$0] },
            options: options)
    }

    /// A migrator for the store at `url`, with every mapping file by the
    /// version it starts from (several spans may start at one version).
    package init(
        storeAt url: URL, chain: SchemaChain,
        mappingFiles: [Int: [any MigrationMappingApplying]],
        options: MigrationOptions = MigrationOptions()
    ) {
        // The real file, so the lock, backup and stage copies sit beside it
        // (a link that names nothing fails to open, with its name).
        self.storeURL = (try? StorePath.resolve(url)) ?? url
        self.chain = chain
        self.mappingFiles = mappingFiles.mapValues {
            $0.sorted { ($0.endVersion ?? 0) > ($1.endVersion ?? 0) }
        }
        self.options = options
    }

    // MARK: - Dry run

    /// What a run would do, worked out without changing the store's files
    /// (they stay byte-identical).
    ///
    /// Unless ``MigrationOptions/rehearses`` is off, the whole migration is
    /// also rehearsed on a private copy in the temporary folder, so a dry run
    /// without blocking findings means the run passes: whatever would stop
    /// the run (a mapped value breaking a destination rule, an overflow, a
    /// damaged page) is a blocking finding instead.
    ///
    /// - Throws: ``StoreError`` for a missing or unreadable store,
    ///   ``MigrationError`` for an unknown or newer version, a downgrade, a
    ///   store whose tables do not fit its version or a malformed journal.
    public func preview() throws -> MigrationPreview {
        let store = try Store.open(at: storeURL, mode: .readOnly)
        defer { try? store.close() }  // Read only; nothing to lose.
        var preview = try examine(store, counting: true)
        if options.rehearses, !preview.isUpToDate, preview.blockingFindings.isEmpty {
            let rehearsal = MigrationRehearsal(
                store: store, chain: chain, mappingFiles: mappingFiles, options: options)
            if let finding = try rehearsal.run() {
                preview.findings.append(finding)
            } else {
                preview.rehearsed = true
            }
        }
        return preview
    }

    private func examine(_ store: Store, counting: Bool) throws -> MigrationPreview {
        do {
            return try examineUnwrapped(store, counting: counting)
        } catch let error as SQLiteError {
            throw MigrationError(
                .storeFailure,
                message: "\(storeURL.relativePath): reading the store to plan the migration "
                    + "failed; nothing was changed: \(error)")
        }
    }

    private func examineUnwrapped(_ store: Store, counting: Bool) throws -> MigrationPreview {
        let journal = try MigrationJournal(store.metadata, store: storeURL)
        let source = try detectVersion(of: store)
        let (current, chain, mappings) = (source.current, source.chain, source.mappingFiles)
        let target = try targetVersion(from: current.version)
        try StoreStructureCheck(
            store: store, current: current,
            later: chain.versions.filter { $0.version > current.version && $0.version <= target }
        ).verify()
        // Every pair of adjacent versions matched once, for every span the
        // route, the preflight and the report look at.
        let correspondences = ChainCorrespondences(chain)
        let route = try MigrationRoute(
            chain: chain, from: current.version, to: target, mappings: mappings,
            customSteps: options.customSteps, policySteps: options.policySteps,
            correspondences: correspondences,
            matching: options.asCoreData ? .coreData : .chain)
        let preflight = try MigrationPreflight(
            store: store, chain: chain, current: current, options: options,
            correspondences: correspondences)
        // The first stage meets the store as it is (index names of the
        // framework that made it, a reflexive join table named after either
        // side); later stages meet what earlier ones made, and are fitted
        // when they run.
        var stages = route.stages
        if let first = stages.first {
            stages[0] = try first.fitted(to: store.connection, path: storeURL.relativePath)
        }
        let (previews, findings) = try preflight.examine(stages, counting: counting)
        var preview = MigrationPreview(
            storePath: storeURL.relativePath, currentVersion: current.version,
            targetVersion: target, stages: previews, findings: findings, journal: journal,
            rowCounts: counting || options.reportsRowCounts ? try preflight.rowCounts() : [:])
        preview.versionNotes = source.notes
        preview.chain = chain
        return preview
    }

    // MARK: - Running

    /// Migrates the store to the target version.
    ///
    /// The run holds the store's ``StoreLock`` exclusively from start to
    /// end, waiting up to ``MigrationOptions/lockTimeout`` for another
    /// migration or a save to finish. A run that fails before its first
    /// stage commits leaves the store's file byte-identical, with no journal
    /// and no backup.
    ///
    /// - Parameter progress: Called after every statement of an in-place
    ///   stage and every batch of a copy stage.
    /// - Returns: What the run did.
    /// - Throws: ``StoreError`` (`locked`) when the lock stayed taken;
    ///   ``MigrationError`` before anything is written for refusals and
    ///   blocking preflight findings; during a stage, whatever stopped it
    ///   (the stage is rolled back, earlier stages stay, and a re-run
    ///   resumes).
    @discardableResult
    public func run(
        progress: @escaping (MigrationProgress) -> Void = { _ in }
    ) throws -> MigrationReport {
        // Before the lock: a missing store, a directory or a read-only store
        // or folder would otherwise only show as "cannot create the lock file".
        try Store.checkAccess(path: storeURL.relativePath, mode: .readWrite)
        let lock = try StoreLock(
            for: storeURL, mode: .exclusive, waitingUpTo: options.lockTimeout,
            waiting: options.waitingForLock)
        defer { lock.release() }
        StageRunner.removeLeftoverWorkFiles(of: storeURL)
        let hasWAL = FileSystem.size(of: storeURL.path + "-wal") > 0
        let store = try Store.open(at: storeURL, mode: .readWrite)
        defer { try? store.close() }  // Every stage committed or rolled back already.
        // A run refused or failed before its first stage leaves the WAL of an
        // app's recent writes where it is; a finished run checkpoints below.
        // (Without one, closing only removes the empty -wal and -shm files.)
        if hasWAL { try store.connection.setCheckpointsOnClose(false) }
        let preview = try examine(store, counting: false)
        let earlier = preview.journal
        var report = MigrationReport(
            startVersion: preview.currentVersion, finalVersion: preview.currentVersion,
            completedStages: [], resumedAfter: earlier?.completedStages ?? [],
            rowsBefore: preview.rowCounts, rowsAfter: preview.rowCounts)
        report.accepted = preview.findings.filter(\.isAccepted)
        report.versionNotes = preview.versionNotes

        if preview.isUpToDate {
            if let earlier {  // A finished run's journal; tidy up after it.
                try store.connection.inTransaction(.immediate) {
                    try store.writeMetadata(MigrationJournal.removed(from: store.metadata))
                }
                if let name = earlier.backupName { StoreBackup.remove(of: storeURL, named: name) }
            }
            try storeSchemaIfStale(store, version: preview.currentVersion)
            return report
        }
        let blocking = preview.blockingFindings
        guard blocking.isEmpty else {
            throw MigrationError(
                .preflightFailed,
                message: "\(storeURL.relativePath): nothing was changed; the migration from "
                    + "version \(preview.currentVersion) to \(preview.targetVersion) needs:\n  "
                    + blocking.map(\.message).joined(separator: "\n  "))
        }

        var journal =
            earlier
            ?? MigrationJournal(
                startVersion: preview.currentVersion, targetVersion: preview.targetVersion,
                backupName: nil)
        journal.targetVersion = preview.targetVersion
        // Only a committed stage makes a backup the journal's.
        if journal.completedStages.isEmpty { journal.backupName = nil }
        let stages = preview.stages.map(\.stage)
        // The backup is made lazily, before the first stage that can lose
        // something, unless that is the run's last (``StoreBackup/stage(
        // needingBackupIn:)``). A file in its way is refused before
        // anything is written. The journal first names it with that
        // stage's commit, so a run whose stage fails removes it; one killed
        // in between leaves a backup marked as this store's, which the next
        // run recognises and makes afresh.
        let backupStage =
            options.keepsBackup && journal.backupName == nil
            ? StoreBackup.stage(needingBackupIn: stages) : nil
        if let index = backupStage {
            try StoreBackup.removeLeftover(
                of: store, named: StoreBackup.name(of: storeURL, version: stages[index].from))
        }
        report.backup =
            journal.backupName.map { .resumed(name: $0) }
            ?? (options.keepsBackup ? .notNeeded : .off)

        for (index, stage) in stages.enumerated() {
            var backup: PendingBackup?
            if index == backupStage {
                let name = StoreBackup.name(of: storeURL, version: stage.from)
                backup = try beginBackup(of: store, named: name, before: stage, at: report)
                journal.backupName = name
                report.backup = .made(name: name, beforeStage: stage.name)
            }
            var runner = StageRunner(
                stage: stage, position: (index + 1, stages.count), batchSize: options.batchSize,
                checksRequiredValues: !options.asCoreData, progress: progress)
            runner.writesJournal = index < stages.count - 1 || journal.backupName != nil
            if let backup {
                // Marked, flushed and linked while the stage works; in place
                // before the commit that names it.
                backup.finishInBackground()
                let failure = backupFailure(named: backup.name, before: stage, at: report)
                runner.beforeCommit = {
                    do { try backup.wait() } catch { throw failure(error) }
                }
            }
            do {
                switch stage.mode {
                case .inPlace: try runner.runInPlace(on: store, journal: journal)
                case .copy: try runner.runOnCopy(of: store, journal: journal)
                }
            } catch {
                backup?.discard()
                guard let error = error as? SQLiteError else { throw error }
                throw MigrationError(
                    .storeFailure,
                    message: "\(storeURL.relativePath): stage \(stage.name) failed and was "
                        + "rolled back; the store is at version \(report.finalVersion): \(error)")
            }
            journal.completedStages.append(stage.name)
            report.completedStages.append(stage.name)
            report.finalVersion = stage.to
        }
        // With a backup, the last stage committed with its journal entry;
        // the backup goes first, then the journal, so a kill between the two
        // leaves a journal that a re-run (finding the store up to date)
        // tidies away. Without one, the last stage removed the journal.
        if let name = journal.backupName {
            StoreBackup.remove(of: storeURL, named: name)
            try store.connection.inTransaction(.immediate) {
                try store.writeMetadata(MigrationJournal.removed(from: store.metadata))
            }
        }
        _ = try? store.connection.walCheckpoint(truncate: true)  // Tidiness only.
        try store.connection.setCheckpointsOnClose(true)
        report.movedObjects = movedObjects(
            in: preview.chain ?? chain, from: report.startVersion, to: report.finalVersion)
        if options.reportsRowCounts, let reached = chain.model(version: report.finalVersion) {
            report.rowsAfter = try MigrationPreflight(
                store: store, chain: chain, current: reached, options: options
            ).rowCounts()
        }
        return report
    }

    /// Starts the backup `name` before `stage` (``StoreBackup/begin(of:named:)``).
    private func beginBackup(
        of store: Store, named name: String, before stage: MigrationStage,
        at report: MigrationReport
    ) throws -> PendingBackup {
        do {
            return try StoreBackup.begin(of: store, named: name)
        } catch let error as SQLiteError {
            // Another connection kept writing past the busy timeout, or the
            // copy failed: the stage has not begun.
            throw backupFailure(named: name, before: stage, at: report)(error)
        }
    }

    /// The error for a backup that could not be made: the stage it was for
    /// has not begun, or is rolled back.
    private func backupFailure(
        named name: String, before stage: MigrationStage, at report: MigrationReport
    ) -> (any Error) -> MigrationError {
        let (path, version) = (storeURL.relativePath, report.finalVersion)
        return { error in
            MigrationError(
                .storeFailure,
                message: "\(path): the backup \(name) could not be made before stage "
                    + "\(stage.name); the store is at version \(version), as it was: \(error)")
        }
    }

    /// The entities of version `from` that are gone at `to` while their
    /// subentities continue, with the newer entities holding their objects.
    private func movedObjects(in chain: SchemaChain, from: Int, to: Int) -> [String: [String]] {
        guard from < to, let first = chain.model(version: from),
            let match = ChainCorrespondences(chain).matches(
                from: from, to: to, options.asCoreData ? .coreData : .chain)
        else { return [:] }
        var moved: [String: [String]] = [:]
        for entity in first.entities where match.newerEntity(continuing: entity.name) == nil {
            let heirs = first.entityTree(rootedAt: entity.name).compactMap {
                match.newerEntity(continuing: $0.name)
            }
            if !heirs.isEmpty { moved[entity.name] = heirs.sorted() }
        }
        return moved
    }

    /// Gives a store Strata wrote (it has Strata's model name key) that is
    /// already at `version` the stored schema of that version, when it
    /// lacks it (written before Strata stored schemas) or carries other
    /// text; stages store theirs with their metadata. A store only Core Data
    /// has written is left byte-identical.
    private func storeSchemaIfStale(_ store: Store, version: Int) throws {
        guard store.metadata.modelName != nil, let model = chain.model(version: version),
            store.metadata.modelSchema != StoredSchema.pack(model)
        else { return }
        try store.connection.inTransaction(.immediate) {
            _ = try store.updateStoredSchema(to: model)
        }
    }

    // MARK: - Versions

    /// The chain's version whose hashes the store carries, or the store's
    /// own model (``MigrationSource``).
    private func detectVersion(of store: Store) throws -> MigrationSource {
        let metadata = store.metadata
        if Store.matchingVersions(of: metadata.versionHashes, in: chain).isEmpty,
            metadata.modelName == chain.name, let version = metadata.modelVersion,
            version > chain.newest.version
        {
            throw MigrationError(
                .newerThanSchemas,
                message: "\(storeURL.relativePath) was written by \(chain.name) version "
                    + "\(version), newer than the newest schema here (version "
                    + "\(chain.newest.version)); update the schemas, Strata never downgrades")
        }
        return try MigrationSource(
            store: store, chain: chain, mappingFiles: mappingFiles, target: options.targetVersion,
            path: storeURL.relativePath)
    }

    /// The version to go to, checked against the chain and `current`.
    private func targetVersion(from current: Int) throws -> Int {
        let target = options.targetVersion ?? chain.newest.version
        guard chain.model(version: target) != nil else {
            let known = chain.versions.map { String($0.version) }.joined(separator: ", ")
            throw MigrationError(
                .unknownVersion,
                message: "\(chain.name) has no version \(target) (versions: \(known))")
        }
        guard target >= current else {
            throw MigrationError(
                .downgrade,
                message: "\(storeURL.relativePath) is at version \(current); moving it down to "
                    + "\(target) is not supported (Strata only upgrades)")
        }
        return target
    }
}
