import Foundation
import StrataMigration
import StrataSchema
import StrataStore

#if canImport(Glibc)
    import Glibc
#endif

/// Makes a store on first run — from a seed, or empty — so that it appears
/// at its place complete or not at all, once, however many processes start
/// together.
///
/// - **Atomic**: the store is built in a hidden file beside its place
///   (`.<name>.strata-seeding`), checked (`PRAGMA integrity_check`, the
///   newest version's hashes), synced and hard-linked into place; a process
///   killed before the link leaves no store, and the next start removes what
///   it left and seeds again.
/// - **Race-safe**: the build holds the store's ``StoreLock``
///   (`<store>.strata-lock`, a `flock(2)` that dies with its process, so a
///   crashed seeder's lock is simply taken over) exclusively; others wait,
///   then find the store there.
/// - **Idempotent**: an existing store is never seeded again or replaced
///   (the link refuses to replace a file).
///
/// ```swift
/// let seeder = try Seeder(
///     storeAt: storeURL, schemas: recipesSchemasURL, seed: .store(seedURL))
/// let result = try seeder.seedIfMissing()
/// print(result.outcome, result.counts)
/// ```
public struct Seeder {
    /// Where the store goes.
    public let storeURL: URL
    /// The model folder (versions and mapping files); nil when the
    /// versions were given without one (the schema generated classes
    /// carry), so there are no mapping files.
    public let schemas: URL?
    /// The model's versions.
    public let chain: SchemaChain
    /// The seed; nil makes an empty store.
    public let seed: Seed?
    /// How to seed.
    public var options: SeedingOptions

    /// A seeder for the store at `storeURL`, of the model in the folder
    /// `schemas`.
    ///
    /// - Throws: ``SchemaError`` when the schemas do not load.
    public init(
        storeAt storeURL: URL, schemas: URL, seed: Seed?,
        options: SeedingOptions = SeedingOptions()
    ) throws {
        try self.init(
            storeAt: storeURL, chain: try SchemaChain.load(directory: schemas), folder: schemas,
            seed: seed, options: options)
    }

    /// A seeder for the store at `storeURL`, of the versions in `chain`,
    /// whose mapping files (if any) are in `folder`.
    init(
        storeAt storeURL: URL, chain: SchemaChain, folder: URL?, seed: Seed?,
        options: SeedingOptions
    ) throws {
        // The real files: the store is built beside its real file, and a
        // seed given as a link is copied, never migrated in place.
        self.storeURL = try StorePath.resolve(storeURL)
        self.schemas = folder
        self.chain = chain
        var seed = seed
        if let given = seed?.url { seed?.url = try StorePath.resolve(given) }
        self.seed = seed
        self.options = options
    }

    /// The mapping files of ``schemas``, none without a folder.
    func mappingFiles() throws -> [Int: [any MigrationMappingApplying]] {
        guard let schemas else { return [:] }
        return try MappingFileLoader.load(directory: schemas, chain: chain)
    }

    /// The hidden file the store is built in, beside it.
    var buildingURL: URL {
        storeURL.deletingLastPathComponent()
            .appendingPathComponent(".\(storeURL.lastPathComponent).strata-seeding")
    }

    /// Seeds the store unless it exists.
    ///
    /// - Returns: Whether the store was seeded, created empty or found.
    /// - Throws: ``SeedingError`` for a bad seed or an unwritable folder
    ///   (before anything is written), or a failed build (whose files are
    ///   removed); ``StoreError`` (`locked`) when another process kept the
    ///   lock past ``SeedingOptions/lockTimeout``.
    public func seedIfMissing() throws -> SeedingResult {
        let start = Date()
        let fileManager = FileManager.default
        let storePath = storeURL.relativePath
        if fileManager.fileExists(atPath: storePath) {
            return existing(since: start)
        }
        try checkFolder()
        if let seed { try Self.checkReadable(seed) }

        let lock = try StoreLock(
            for: storeURL, mode: .exclusive, waitingUpTo: options.lockTimeout,
            waiting: options.waitingForLock)
        defer { lock.release() }
        let steps = StepReporter(options.afterStep)
        steps.report("locked")
        let removed = removeLeftovers()
        if fileManager.fileExists(atPath: storePath) {
            var result = SeedingResult(outcome: .existing, storeURL: storeURL)
            result.removedLeftovers = removed
            result.seconds = Date().timeIntervalSince(start)
            return result
        }
        steps.report("cleaned")

        var result = SeedingResult(outcome: .created, storeURL: storeURL)
        result.removedLeftovers = removed
        if let seed {
            do {
                let record = try build(from: seed, steps: steps)
                result.counts = try finish(recording: record, steps: steps)
                result.seed = record
            } catch {
                _ = removeLeftovers()  // Ours: the half-built store and its companions.
                if error is SeedingError { throw error }
                throw SeedingError(
                    .buildFailed, path: seed.url.relativePath,
                    "seeding \(storePath) from it failed, and no store was left there: \(error)")
            }
            result.outcome = .seeded
        } else {
            let store = try Store.create(at: storeURL, model: chain.newest)
            try store.close()
            steps.report("created")
        }
        result.seconds = Date().timeIntervalSince(start)
        return result
    }

    /// The result for a store that is there already; when a killed seeding
    /// left its hidden files beside it, they are removed under the lock.
    private func existing(since start: Date) -> SeedingResult {
        var result = SeedingResult(outcome: .existing, storeURL: storeURL)
        // A seeder killed after its link leaves its lock file (which no
        // process holds: a flock dies with its process), and one killed
        // between the link and the removal of the hidden name leaves that
        // name too: tidied when the lock is free at once (its last holder
        // removes the lock file), otherwise left for a later start.
        let fileManager = FileManager.default
        if fileManager.fileExists(atPath: buildingURL.path)
            || fileManager.fileExists(atPath: StoreLock.path(for: storeURL)),
            let lock = try? StoreLock(for: storeURL, mode: .exclusive, waitingUpTo: 0)
        {
            result.removedLeftovers = removeLeftovers()
            lock.release()
        }
        result.seconds = Date().timeIntervalSince(start)
        return result
    }

    // MARK: - Checks before the lock

    /// The folder must exist and be writable: otherwise the lock file
    /// could not be made, and the message would only say so.
    private func checkFolder() throws {
        let folder = storeURL.deletingLastPathComponent().relativePath
        let shown = folder.isEmpty ? "." : folder
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: shown, isDirectory: &isDirectory),
            isDirectory.boolValue
        else {
            throw SeedingError(
                .unwritableFolder, path: shown,
                "the store's folder does not exist; no store was made")
        }
        guard access(shown, W_OK | X_OK) == 0 else {
            throw SeedingError(
                .unwritableFolder, path: shown,
                "the store's folder is not writable (\(String(cString: strerror(errno)))); "
                    + "no store was made")
        }
    }

    /// A seed must be a readable file.
    static func checkReadable(_ seed: Seed) throws {
        let path = seed.url.relativePath
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw SeedingError(.badSeed, path: path, "no such seed file")
        }
        guard !isDirectory.boolValue else {
            throw SeedingError(.badSeed, path: path, "is a folder; a seed is one file")
        }
        guard access(path, R_OK) == 0 else {
            throw SeedingError(
                .badSeed, path: path,
                "cannot read the seed file (\(String(cString: strerror(errno))))")
        }
    }

    // MARK: - Leftovers

    /// Removes every file a killed seeding left beside the store: the
    /// hidden build file, its `-wal`, `-shm`, `-journal`, lock, backup, and
    /// the hidden files of the create, import and unarchive it ran. Only
    /// called with the store's lock held, when no other seeding can be
    /// using them.
    private func removeLeftovers() -> [String] {
        let folder = storeURL.deletingLastPathComponent()
        let prefix = buildingURL.lastPathComponent
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else {
            return []
        }
        var removed: [String] = []
        for name in names.sorted() where name.hasPrefix(prefix) || name.hasPrefix("." + prefix) {
            // A leftover that cannot be removed stays hidden; the build's own
            // checks fail on it with its name.
            if (try? FileManager.default.removeItem(at: folder.appendingPathComponent(name)))
                != nil
            {
                removed.append(name)
            }
        }
        return removed
    }
}

/// Numbers the steps of a seeding and passes them to the hook.
final class StepReporter {
    private let hook: ((SeedingStep) -> Void)?
    private var number = 0

    init(_ hook: ((SeedingStep) -> Void)?) { self.hook = hook }

    func report(_ name: String) {
        number += 1
        hook?(SeedingStep(number: number, name: name))
    }
}
