import Foundation
import StrataCore
import StrataFormats
import StrataMigration
import StrataStore

#if canImport(Glibc)
    import Glibc
#endif

// MARK: - Building the store in its hidden file

extension Seeder {
    /// Builds the store from `seed` in ``buildingURL``, at the newest
    /// version, and returns what to record about the seed.
    func build(from seed: Seed, steps: StepReporter) throws -> SeedRecord {
        let digest = try SeedRecord.digest(of: seed.url)
        steps.report("hashed")
        let version: Int
        switch seed.kind {
        case .store: version = try buildFromStore(seed, steps: steps)
        case .bundle: version = try buildFromBundle(seed, steps: steps)
        case .records(let format):
            version = try buildFromRecords(seed, format: format, steps: steps)
        }
        return SeedRecord(
            name: seed.name, sha256: digest, version: version, kind: seed.kindName)
    }

    /// A copy of the seed store (read through its WAL, never written) without
    /// its triggers and views, migrated to the newest version; a seed with
    /// rows whose `Z_ENT` names no entity is refused. The migrator's dry run on the seed
    /// refuses a store of another model, an unknown or newer version, or
    /// one whose data the migration would lose, before anything is copied.
    private func buildFromStore(_ seed: Seed, steps: StepReporter) throws -> Int {
        let seedPath = seed.url.relativePath
        let mappings = try mappingFiles()
        var check = MigrationOptions()
        check.rehearses = false
        let preview: MigrationPreview
        do {
            preview = try Migrator(
                storeAt: seed.url, chain: chain, mappingFiles: mappings, options: check
            ).preview()
        } catch let error as MigrationError {
            throw SeedingError(.badSeed, path: seedPath, "cannot seed from it: \(error.message)")
        } catch let error as StoreError {
            throw SeedingError(.badSeed, path: seedPath, error.message)
        }
        let blocking = preview.blockingFindings
        guard blocking.isEmpty else {
            throw SeedingError(
                .badSeed, path: seedPath,
                "cannot seed from it: the migration from version \(preview.currentVersion) "
                    + "needs:\n  " + blocking.map(\.message).joined(separator: "\n  "))
        }
        steps.report("checked")
        let source = try Store.open(at: seed.url, mode: .readOnly)
        do {
            // Rows no entity reads would be left out of the app's store.
            try source.refuseUnknownEntityRows(for: "seeding")
            try source.connection.copyDatabase(to: buildingURL.path)
            try source.close()
        } catch let error as StoreError {
            try? source.close()  // Read only; this error is the one to report.
            throw SeedingError(.badSeed, path: seedPath, error.message)
        } catch {
            try? source.close()  // Read only; the copy's error is the one to report.
            throw error
        }
        try Self.dropTriggersAndViews(in: buildingURL)
        steps.report("copied")
        if preview.currentVersion < chain.newest.version {
            var migration = MigrationOptions()
            migration.keepsBackup = false  // The seed itself is the backup.
            migration.rehearses = false
            try Migrator(
                storeAt: buildingURL, chain: chain, mappingFiles: mappings, options: migration
            ).run { _ in steps.report("migrating") }
            steps.report("migrated")
        }
        return preview.currentVersion
    }

    /// Drops every trigger and view of the copied seed store at `url`: a
    /// store is input, and only the model's tables and indexes are the
    /// app's (a trigger would run on the app's own writes, before the
    /// migration's too).
    static func dropTriggersAndViews(in url: URL) throws {
        let connection = try Connection(path: url.path, mode: .readWrite)
        do {
            try connection.inTransaction(.immediate) { try connection.dropTriggersAndViews() }
            try connection.close()
        } catch {
            try? connection.close()  // The first error is the one to report.
            throw error
        }
    }

    /// The bundle unarchived (every checksum verified first) at its own
    /// version and migrated to the newest.
    private func buildFromBundle(_ seed: Seed, steps: StepReporter) throws -> Int {
        var unarchiving = UnarchiveOptions()
        unarchiving.schemas = schemas
        unarchiving.targetVersion = chain.newest.version
        let unarchiver = try BundleUnarchiver(bundle: seed.url, options: unarchiving)
        // Without a folder the bundle is restored at its own version, which
        // nothing could migrate afterwards.
        if schemas == nil, unarchiver.model.version != chain.newest.version {
            throw SeedingError(
                .badSeed, path: seed.url.relativePath,
                "holds a store of \(unarchiver.model.name) version \(unarchiver.model.version); "
                    + "only version \(chain.newest.version) is known here (pass the model's "
                    + "schemas folder to migrate it)")
        }
        steps.report("opened")
        try unarchiver.unarchive(to: buildingURL)
        steps.report("unarchived")
        return unarchiver.model.version
    }

    /// The records imported into a new store at the newest version, with
    /// the mapping file's options.
    private func buildFromRecords(_ seed: Seed, format: ImportFormat, steps: StepReporter) throws
        -> Int
    {
        var options = ImportOptions(entity: seed.entity)
        if let mapping = seed.mapping {
            try ImportMappingFile.apply(mapping.relativePath, to: &options)
        }
        guard options.entity != nil else {
            throw SeedingError(
                .badSeed, path: seed.url.relativePath,
                "name the entity its records become (in the import mapping's \"entity\")")
        }
        let source = try ImportReaders.open(
            seed.url.relativePath, format: format, reading: ImportReadingOptions(),
            limits: options.limits, fileNameInto: options.fileNameInto)
        let model = chain.newest
        let store = try Store.create(at: buildingURL, model: model) { fresh in
            let importer = try Importer(store: fresh, model: model, options: options)
            importer.progress = { _ in steps.report("importing") }
            switch source {
            case .fields(let reader): _ = try importer.run(reader)
            case .records(let reader): _ = try importer.run(reader)
            }
        }
        try store.close()
        steps.report("imported")
        return model.version
    }

    /// Records the seed in the built store's metadata, checks the store
    /// whole, syncs it and links it into place; returns the object counts.
    func finish(recording record: SeedRecord, steps: StepReporter) throws -> [String: Int64] {
        let store = try Store.open(at: buildingURL)
        let info: StoreInfo
        let problems: [StoreProblem]
        do {
            try store.connection.inTransaction(.immediate) {
                try store.writeMetadata(record.recorded(in: store.metadata))
            }
            info = try store.info(model: chain.newest)
            // The checks of `strata check` on what was written (all of it).
            problems =
                try store.checkRelationships(model: chain.newest).map(StoreProblem.init)
                + store.checkValues(model: chain.newest)
            try store.close()  // The last connection: checkpoints and removes the WAL.
        } catch {
            try? store.close()  // The first error is the one to report.
            throw error
        }
        steps.report("recorded")
        guard info.integrity == ["ok"], info.hashMismatches.isEmpty else {
            throw SeedingError(
                .buildFailed, path: storeURL.relativePath,
                "the seeded store failed its checks (integrity: "
                    + info.integrity.prefix(3).joined(separator: "; ")
                    + ", hashes differing from version \(chain.newest.version): "
                    + "\(info.hashMismatches.joined(separator: ", ")))")
        }
        if let problem = problems.first {
            throw SeedingError(
                .buildFailed, path: storeURL.relativePath,
                "the seeded store failed its checks: \(problem)"
                    + (problems.count > 1 ? " (and \(problems.count - 1) more)" : ""))
        }
        // Only the main file is linked: everything must be in it.
        guard FileSystem.size(of: buildingURL.path + "-wal") == 0 else {
            throw SeedingError(
                .buildFailed, path: storeURL.relativePath,
                "the seeded store's WAL was not checkpointed into it")
        }
        try syncFile(buildingURL.path)
        steps.report("synced")
        try FileSystem.linkWithoutReplacing(buildingURL.path, to: storeURL.relativePath)
        steps.report("linked")
        var counts: [String: Int64] = [:]
        for entity in info.entities { counts[entity.name] = entity.rows }
        return counts
    }

    /// Flushes the file at `path` to disk, so the linked name never points
    /// at pages still in memory after a power loss.
    private func syncFile(_ path: String) throws {
        let descriptor = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0, fsync(descriptor) == 0 else {
            let reason = String(cString: strerror(errno))
            if descriptor >= 0 { Glibc.close(descriptor) }
            throw SeedingError(
                .buildFailed, path: storeURL.relativePath,
                "cannot sync the seeded store before linking it: \(reason)")
        }
        Glibc.close(descriptor)
    }
}
