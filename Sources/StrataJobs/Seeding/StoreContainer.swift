import Foundation
import StrataContext
import StrataMigration
import StrataSchema
import StrataStore

/// One call from a model name to a ready ``Context``: finds or makes the
/// store at its place, seeds it on first run, upgrades an older one to
/// the newest version, and opens it.
///
/// ```swift
/// let container = try StoreContainer(
///     model: "Recipes", schemas: schemasURL, seed: .store(seedURL),
///     location: .file(storeURL))
/// let recipes = try container.context.findAll("Recipe")
/// ```
///
/// - A missing store is made by a ``Seeder``: from the seed, atomically and
///   once however many processes start together, or empty without one.
/// - A store of an older version is migrated by the ``Migrator``, which
///   keeps its backup and journal while it runs; a store of an unknown or
///   newer version is refused with the migrator's message, untouched.
public final class StoreContainer {
    /// The store's location.
    public let storeURL: URL
    /// The model's versions.
    public let chain: SchemaChain
    /// A context on the store, at the newest version.
    public let context: Context
    /// Whether the store was seeded, created or found.
    public let seeding: SeedingResult
    /// The migration that upgraded an existing store on open, if one ran.
    public let migration: MigrationReport?

    /// The open store.
    public var store: Store { context.store }

    /// What the store was seeded with (from its metadata), if it was.
    public var seedRecord: SeedRecord? { SeedRecord(metadata: store.metadata) }

    /// Opens (seeding or upgrading first, as needed) the store of `model`.
    ///
    /// - Parameters:
    ///   - model: The model's name: its folder in `schemas`.
    ///   - schemas: A Schemas folder holding `<model>/1.json, …`, or the
    ///     model folder itself (as shipped in an app's resources).
    ///   - seed: What a new store is filled with; nil makes it empty.
    ///   - location: Where the store lives; by default
    ///     `$XDG_DATA_HOME/<program>/<model>.sqlite`. The folder is made
    ///     when missing.
    ///   - options: How seeding waits and reports.
    /// - Throws: ``SeedingError`` (a bad seed, an unwritable folder, a
    ///   failed build: no store is left), ``MigrationError`` (a store of an
    ///   unknown or newer version; the migrator's refusals), ``SchemaError``,
    ///   ``StoreError``.
    public convenience init(
        model: String, schemas: URL, seed: Seed? = nil,
        location: StoreLocation = .defaultForThisProgram,
        options: SeedingOptions = SeedingOptions()
    ) throws {
        let folder = try Self.modelFolder(model, in: schemas)
        let storeURL = try location.storeURL(model: model)
        try Self.makeFolder(storeURL.deletingLastPathComponent())
        let seeder = try Seeder(storeAt: storeURL, schemas: folder, seed: seed, options: options)
        guard seeder.chain.name == model else {
            throw SeedingError(
                .badSchemas, path: folder.relativePath,
                "holds the model \(seeder.chain.name), not \(model)")
        }
        try self.init(storeURL: storeURL, seeder: seeder, typedModel: nil)
    }

    /// Seeds, upgrades and opens the store at `storeURL` with `seeder`;
    /// without a schemas folder (`typedModel` given) an older store cannot
    /// be migrated and is refused instead.
    init(storeURL: URL, seeder: Seeder, typedModel: (any TypedModel.Type)?) throws {
        let options = seeder.options
        var seeding = try seeder.seedIfMissing()
        let newest = seeder.chain.newest
        var migration: MigrationReport?
        var store = try Store.open(at: storeURL)
        if (try? store.matchingVersion(in: seeder.chain))?.version != newest.version {
            if let typedModel, seeder.schemas == nil {
                let mismatch = store.versionMismatch(with: newest) ?? "its version is unknown"
                try? store.close()  // Opened only to read its version.
                throw MigrationError(
                    .unknownStoreVersion,
                    message: "\(storeURL.relativePath): \(mismatch); the generated "
                        + "\(typedModel) carries version \(newest.version) only, so the store "
                        + "cannot be migrated without the model's schemas folder "
                        + "(StoreContainer(model: \"\(newest.name)\", schemas: …))")
            }
            try store.close()
            var migrationOptions = MigrationOptions()
            migrationOptions.lockTimeout = options.lockTimeout
            migrationOptions.waitingForLock = options.waitingForLock
            let report = try Migrator(
                storeAt: storeURL, chain: seeder.chain, mappingFiles: try seeder.mappingFiles(),
                options: migrationOptions
            ).run()
            // Another process may have migrated it while this one waited.
            if !report.completedStages.isEmpty { migration = report }
            store = try Store.open(at: storeURL)
        }
        seeding.seed = SeedRecord(metadata: store.metadata)
        self.storeURL = storeURL
        self.chain = seeder.chain
        self.seeding = seeding
        self.migration = migration
        self.context = try Context(store: store, model: newest)
        if let typedModel { try context.register(typedModel) }
    }

    /// Opens the store of `model` with the schemas shipped as resources
    /// of an app's SwiftPM target (`resources: [.copy("Schemas")]`, read
    /// through `Bundle.module`).
    ///
    /// - Parameter subdirectory: The resource folder holding the model
    ///   folders (`Schemas` by default).
    /// - Throws: ``SeedingError`` (`badSchemas`) when the bundle has no such
    ///   folder; otherwise as ``init(model:schemas:seed:location:options:)``.
    public convenience init(
        model: String, bundle: Bundle, subdirectory: String = "Schemas", seed: Seed? = nil,
        location: StoreLocation = .defaultForThisProgram,
        options: SeedingOptions = SeedingOptions()
    ) throws {
        guard let resources = bundle.resourceURL else {
            throw SeedingError(
                .badSchemas, path: bundle.bundlePath, "the bundle has no resources folder")
        }
        try self.init(
            model: model, schemas: resources.appendingPathComponent(subdirectory),
            seed: seed, location: location, options: options)
    }

    /// `schemas/<model>` when it is a folder, else `schemas` itself.
    static func modelFolder(_ model: String, in schemas: URL) throws -> URL {
        let fileManager = FileManager.default
        var isDirectory: ObjCBool = false
        let nested = schemas.appendingPathComponent(model, isDirectory: true)
        if fileManager.fileExists(atPath: nested.path, isDirectory: &isDirectory),
            isDirectory.boolValue
        {
            return nested
        }
        guard fileManager.fileExists(atPath: schemas.path, isDirectory: &isDirectory),
            isDirectory.boolValue
        else {
            throw SeedingError(.badSchemas, path: schemas.relativePath, "no such schemas folder")
        }
        return schemas
    }

    /// Makes the store's folder (and its parents) when missing.
    static func makeFolder(_ folder: URL) throws {
        do {
            try FileManager.default.createDirectory(
                at: folder, withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o700])
        } catch {
            throw SeedingError(
                .unwritableFolder, path: folder.relativePath,
                "cannot make the store's folder: \((error as NSError).localizedDescription)")
        }
    }
}
