import Foundation
import StrataCore
import StrataFormats
import StrataMigration
import StrataSchema
import StrataStore

#if canImport(Glibc)
    import Glibc
#endif

// MARK: - Writing the store

extension BundleUnarchiver {
    /// Writes the bundle's objects into a new store at `storeURL` (or, with
    /// ``UnarchiveOptions/merges``, into the existing one).
    ///
    /// Every checksum is verified before anything reaches `storeURL`: each
    /// file the load reads as it reads it, the others after. The store is
    /// built in a hidden folder beside `storeURL`, at the bundle's version,
    /// migrated to the
    /// target version when one is asked for (the migrator's mappings
    /// apply), and linked into place complete; a failure leaves nothing.
    ///
    /// - Parameter progress: Called as the objects of each entity go in
    ///   (a batch at a time, with the manifest's count as the total); not
    ///   called while merging into an existing store.
    /// - Returns: What was written.
    /// - Throws: ``BundleError`` (`alreadyExists` for an existing store
    ///   without merging, `versionMismatch` for a bundle newer than the
    ///   schemas or differing from their version of its number, a damaged
    ///   file, a line that does not fit the schema); ``MigrationError``;
    ///   ``StoreError``.
    @discardableResult
    public func unarchive(
        to given: URL, progress: ((ExportProgress) -> Void)? = nil
    ) throws -> BundleSummary {
        let start = Date()
        let storeURL = try StorePath.resolve(given)
        let exists = FileManager.default.fileExists(atPath: storeURL.path)
        if exists, !options.merges {
            throw BundleError(
                .alreadyExists, path: storeURL.relativePath,
                "a store already exists here; not replacing it (merge into it with --merge)")
        }
        if !exists, options.merges {
            throw BundleError(
                .alreadyExists, path: storeURL.relativePath, "no store to merge into")
        }
        let target = try targetModel()
        // The bundle's schema is data: its rules are not the store's. The
        // store is built, and every line checked, at the target's own
        // version of the bundle's number (its hashes are the bundle's).
        let rules = try rulesModel(merging: storeURL)
        // The files a load reads are checked against the manifest as they
        // are read (each read once); the rest — files no line names — after.
        let verifies = !isVerified
        var verified: Set<String> = []

        WorkFiles.removeLeftovers(of: storeURL)  // Killed runs' scratch folders.
        let scratch = try WorkFiles.makeFolder(for: storeURL, activity: "unarchiving")
        defer { WorkFiles.remove(scratch) }
        let built = scratch.appendingPathComponent(storeURL.lastPathComponent)
        do {
            try Store.make(at: built, model: rules) { store in
                let loader = try BundleLoader(
                    unarchiver: self, store: store, model: rules, verifies: verifies)
                loader.progress = progress
                defer { verified = loader.verifiedFiles }
                try loader.load()
            }
        } catch {
            // A damaged file explains a load that failed: name it rather
            // than its symptom.
            if verifies { try verify(skipping: verified) }
            throw error
        }
        if verifies { try verify(skipping: verified) }
        if target.version != model.version, let schemas = options.schemas {
            var migration = MigrationOptions()
            migration.targetVersion = target.version
            migration.keepsBackup = false
            migration.rehearses = false
            try Migrator(storeAt: built, schemas: schemas, options: migration).run()
        }
        if options.merges {
            let source = try Store.open(at: built, mode: .readOnly)
            defer { try? source.close() }  // Read-only scratch.
            let destination = try Store.open(at: storeURL)
            defer { try? destination.close() }  // The merge committed or rolled back.
            try BundleMerger(source: source, destination: destination, model: target, path: path)
                .merge()
        } else {
            try FileSystem.linkWithoutReplacing(built.path, to: storeURL.path)
        }
        var summary = BundleSummary()
        summary.model = model.name
        summary.bundleVersion = model.version
        summary.storeVersion = target.version
        summary.counts = manifest.counts
        let media = manifest.files.filter { $0.path.hasPrefix("media/") }
        summary.mediaFiles = media.count
        summary.mediaBytes = media.reduce(0) { $0 + $1.bytes }
        summary.zipBytes = FileSystem.size(of: path)
        summary.seconds = Date().timeIntervalSince(start)
        return summary
    }

    /// The model whose rules the bundle's lines are checked against and
    /// whose schema the store is built with, at the bundle's version: the
    /// schemas' version of the bundle's number (``targetModel()`` checked
    /// its hashes); else, merging, the store's own stored schema when its
    /// hashes are the bundle's; else the bundle's schema (a new store at
    /// the bundle's version with nothing else to go by).
    ///
    /// - Throws: ``SchemaError`` reading the schemas; ``StoreError`` for a
    ///   store to merge into whose stored schema is damaged.
    func rulesModel(merging storeURL: URL) throws -> Model {
        if let schemas = options.schemas,
            let same = try SchemaChain.load(directory: schemas).model(version: model.version)
        {
            return same
        }
        guard options.merges else { return model }
        let store = try Store.open(at: storeURL, mode: .readOnly)
        defer { try? store.close() }  // Read only.
        guard let stored = try store.storedModel(), stored.name == model.name,
            stored.version == model.version, stored.entities.count == model.entities.count,
            stored.entities.allSatisfy({
                stored.versionHash(ofEntity: $0.name) == model.versionHash(ofEntity: $0.name)
            })
        else { return model }  // The merge refuses a store of other hashes.
        return stored
    }

    /// The version the store is written at: the bundle's own without
    /// schemas; with them, the asked or newest version, after checking that
    /// the chain's version of the bundle's number is the bundle's schema and
    /// that the bundle is not newer.
    func targetModel() throws -> Model {
        guard let schemas = options.schemas else { return model }
        let chain = try SchemaChain.load(directory: schemas)
        guard chain.newest.name == model.name else {
            throw BundleError(
                .versionMismatch, path: path,
                "the bundle holds a \(model.name) store; \(schemas.relativePath) is \(chain.newest.name)"
            )
        }
        let target =
            try options.targetVersion.map { version in
                guard let found = chain.model(version: version) else {
                    throw BundleError(
                        .versionMismatch, path: path,
                        "\(schemas.relativePath) has no version \(version)")
                }
                return found
            } ?? chain.newest
        guard model.version <= target.version else {
            throw BundleError(
                .versionMismatch, path: path,
                "the bundle is at version \(model.version), newer than version "
                    + "\(target.version) of \(schemas.relativePath); refusing to write it "
                    + "into an older store")
        }
        guard let same = chain.model(version: model.version),
            same.entities.allSatisfy({
                same.versionHash(ofEntity: $0.name) == model.versionHash(ofEntity: $0.name)
            }), same.entities.count == model.entities.count
        else {
            throw BundleError(
                .versionMismatch, path: path,
                "the bundle's schema (version \(model.version)) differs from version "
                    + "\(model.version) of \(schemas.relativePath)")
        }
        return target
    }
}
