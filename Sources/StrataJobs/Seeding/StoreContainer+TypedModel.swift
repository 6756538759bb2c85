import Foundation
import StrataContext
import StrataSchema

// MARK: - From generated classes alone

extension StoreContainer {
    /// Opens (seeding first, as needed) the store of the model whose
    /// classes were generated as `model`, from the schema it carries: an
    /// app using generated classes ships no schema files.
    ///
    /// ```swift
    /// let container = try StoreContainer(
    ///     model: DiaryModel.self, seed: .records(entriesURL, format: .json, entity: "DiaryEntry"),
    ///     location: .file(storeURL))
    /// let newestFirst = try container.context.findAll(
    ///     DiaryEntry.self, sortedBy: .descending("creationTime"))
    /// ```
    ///
    /// The generated model carries only the version it was generated from,
    /// so the container's ``chain`` is that version alone: a new store is
    /// made at it (seeded from records, a bundle or a store of it), and a
    /// store of it opens. A store or seed of an older version cannot be
    /// migrated without the mapping files and older versions of the
    /// model's folder; an app whose users may have one opens it with
    /// ``init(model:schemas:seed:location:options:)`` (or `bundle:`) instead.
    /// The context has the classes registered.
    ///
    /// - Parameters:
    ///   - model: The generated `<Model>Model` enum.
    ///   - seed: What a new store is filled with; nil makes it empty.
    ///   - location: Where the store lives; by default
    ///     `$XDG_DATA_HOME/<program>/<model>.sqlite`.
    ///   - options: How seeding waits and reports.
    /// - Throws: ``SchemaError`` when the carried schema does not decode
    ///   (the generated file was edited); ``MigrationError``
    ///   (`unknownStoreVersion`) for a store of another version;
    ///   ``SeedingError`` for a seed of another version and otherwise as
    ///   ``init(model:schemas:seed:location:options:)``.
    public convenience init(
        model: any TypedModel.Type, seed: Seed? = nil,
        location: StoreLocation = .defaultForThisProgram,
        options: SeedingOptions = SeedingOptions()
    ) throws {
        let chain = SchemaChain(versions: [try model.loadSchema()])
        let storeURL = try location.storeURL(model: model.name)
        try Self.makeFolder(storeURL.deletingLastPathComponent())
        let seeder = try Seeder(
            storeAt: storeURL, chain: chain, folder: nil, seed: seed, options: options)
        try self.init(storeURL: storeURL, seeder: seeder, typedModel: model)
    }
}
